import { config } from '../../shared/config.js';
import { tokenUsable } from '../../shared/domain/account-tokens.js';
import { hashPassword, scryptCost } from '../../shared/domain/passwords.js';
import { parseMailToken } from '../../shared/domain/secret-tokens.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { routes } from '../../shared/http/contract/routes/password-resets.js';
import { getAccountToken, invalidToken, resetPasswordWith } from '../../shared/store/account-tokens.js';
import { endUserSessions } from '../../shared/store/sessions.js';
import { getUser } from '../../shared/store/users.js';

export const handler = httpHandler(routes.confirmPasswordReset, async ({ body, now }) => {
  const parsed = parseMailToken(body.token, 'pr');
  const record = parsed && (await getAccountToken(parsed.id));
  if (!tokenUsable(body.token, 'pr', record, now)) throw invalidToken();
  const user = await getUser(record.user_id);
  if (!user) throw invalidToken();

  // second factor: wired at merge. With a second factor enabled, the lead calls here
  // `verifySecondFactor(user, { totp_code: body.totp_code, recovery_code: body.recovery_code })`
  // (401 second_factor_required without a code, 401 invalid_credentials for a wrong one), before
  // the token is used, so a missing code does not spend the token.

  await resetPasswordWith(record, await hashPassword(body.password, scryptCost(config.scryptLog2N)));
  await endUserSessions(user.id);
  // second factor: wired at merge. The lead calls `clearLoginThrottle(user.email)` here.
  return { user: presentUser(user) };
});
