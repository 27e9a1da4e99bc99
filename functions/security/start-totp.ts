import { requireCurrentPassword } from '../../shared/auth/current-password.js';
import { sessionUser } from '../../shared/auth/session-user.js';
import { newTotpSecret, otpauthUri } from '../../shared/domain/totp.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { savePendingTotp } from '../../shared/store/second-factor.js';
import { routes } from '../../shared/http/contract/routes/security.js';

const alreadyOn = () =>
  new ApiError('invalid_state', {
    message: 'The second factor is already on.',
    hint: 'Turn it off with DELETE /v1/me/totp first to set up a new authenticator.',
  });

export const handler = httpHandler(routes.startTotp, async ({ body, auth }) => {
  const user = await sessionUser(auth.principal);
  await requireCurrentPassword(user, body.password);
  if (user.totp_secret !== undefined) throw alreadyOn();
  const secret = newTotpSecret();
  if (!(await savePendingTotp(user.id, secret))) throw alreadyOn();
  return { secret, otpauth_uri: otpauthUri(secret, user.email) };
});
