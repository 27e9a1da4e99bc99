import { requireCurrentPassword } from '../../shared/auth/current-password.js';
import { wrongCode } from '../../shared/auth/second-factor.js';
import { sessionUser } from '../../shared/auth/session-user.js';
import { checkSecondFactor, codesOf } from '../../shared/domain/second-factor.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { disableTotp, secondFactorSpend } from '../../shared/store/second-factor.js';
import { routes } from '../../shared/http/contract/routes/security.js';

export const handler = httpHandler(routes.disableTotp, async ({ body, auth, now }) => {
  const user = await sessionUser(auth.principal);
  await requireCurrentPassword(user, body.password);
  // A recovery code does too: someone who lost the app logs in with one and turns the factor off.
  const check = checkSecondFactor(user, codesOf(body.code), now);
  if (check.outcome === 'not_enabled')
    throw new ApiError('invalid_state', {
      message: 'The second factor is not on.',
      hint: 'Nothing to turn off; POST /v1/me/totp sets one up.',
    });
  const spend = secondFactorSpend(user.id, check);
  // Refused: the factor changed, or another request spent this code first.
  if (!spend || !(await disableTotp(spend))) throw wrongCode();
  return { enabled: false as const };
});
