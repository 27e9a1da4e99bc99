import { passwordResetMail } from '../../shared/domain/account-mail.js';
import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { routes } from '../../shared/http/contract/routes/password-resets.js';
import { issueAccountToken } from '../../shared/store/account-tokens.js';
import { findCredential } from '../../shared/store/users.js';

/**
 * Whether or not an account has the address, the same work: one read of the address's claim, then
 * one transaction of a token, its slot and a mail (for no account, a token no one can use and a
 * mail never delivered), and the same answer.
 */
export const handler = httpHandler(routes.requestPasswordReset, async ({ body, event, now }) => {
  const credential = await findCredential(body.email);
  const { record, mails } = passwordResetMail(now, publicBaseUrl(event), body.email, credential?.user_id ?? null);
  await issueAccountToken(record, mails);
  return { requested: true as const };
});
