import { sessionUser } from '../../shared/auth/session-user.js';
import { emailChangeMail } from '../../shared/domain/account-mail.js';
import { verifyPassword } from '../../shared/domain/passwords.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { routes } from '../../shared/http/contract/routes/email.js';
import { issueAccountToken } from '../../shared/store/account-tokens.js';
import { findCredential } from '../../shared/store/users.js';

export const handler = httpHandler(routes.changeEmail, async ({ body, auth, event, now }) => {
  const user = await sessionUser(auth.principal);
  const [credential, taken] = await Promise.all([findCredential(user.email), findCredential(body.email)]);
  if (!credential || !(await verifyPassword(body.password, credential.password_hash)))
    throw new ApiError('invalid_credentials', {
      message: 'The password is wrong.',
      hint: "Send the account's present password as password; this session is still valid.",
    });
  if (taken)
    throw new ApiError('email_taken', {
      hint: body.email === user.email ? 'This is already the account address.' : 'Choose another address.',
    });
  const { record, mails } = emailChangeMail(now, publicBaseUrl(event), user, body.email);
  await issueAccountToken(record, mails);
  return { user: presentUser(user), pending_email: body.email };
});
