import { requireCurrentPassword } from '../../shared/auth/current-password.js';
import { wrongCode } from '../../shared/auth/second-factor.js';
import { sessionUser } from '../../shared/auth/session-user.js';
import { checkSecondFactor } from '../../shared/domain/second-factor.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { disableTotp } from '../../shared/store/second-factor.js';
import { routes } from '../../shared/http/contract/routes/security.js';

export const handler = httpHandler(routes.disableTotp, async ({ body, auth, now }) => {
  const user = await sessionUser(auth.principal);
  await requireCurrentPassword(user, body.password);
  const check = checkSecondFactor(user, { totp_code: body.code }, now);
  if (check.outcome === 'not_enabled')
    throw new ApiError('invalid_state', {
      message: 'The second factor is not on.',
      hint: 'Nothing to turn off; POST /v1/me/totp sets one up.',
    });
  if (check.outcome !== 'totp') throw wrongCode();
  // Refused: the factor changed, or another request spent this code first.
  if (!(await disableTotp(user.id, check.secret, check.step))) throw wrongCode();
  return { enabled: false as const };
});
