import { sessionUser } from '../../shared/auth/session-user.js';
import { config } from '../../shared/config.js';
import { hashPassword, scryptCost, verifyPassword } from '../../shared/domain/passwords.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { replacePasswordHash } from '../../shared/store/passwords.js';
import { endUserSessions } from '../../shared/store/sessions.js';
import { findCredential } from '../../shared/store/users.js';
import { routes } from '../../shared/http/contract/routes/identity.js';

export const handler = httpHandler(routes.changePassword, async ({ body, auth }) => {
  const user = await sessionUser(auth.principal);
  const credential = await findCredential(user.email);
  if (!credential || !(await verifyPassword(body.current_password, credential.password_hash))) {
    throw new ApiError('forbidden', {
      message: 'The current password is wrong.',
      hint: "Send the account's present password as current_password; this session is still valid.",
    });
  }
  const replaced = await replacePasswordHash(
    user.email,
    credential.password_hash,
    await hashPassword(body.new_password, scryptCost(config.scryptLog2N)),
  );
  if (!replaced) {
    throw new ApiError('invalid_state', {
      message: 'The password was changed by another request meanwhile.',
      hint: 'Retry with the password that is now current.',
    });
  }
  return { password_changed: true as const, sessions_ended: await endUserSessions(user.id, auth.principal.session.id) };
});
