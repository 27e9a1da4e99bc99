import { passSecondFactor, wrongCode } from '../../shared/auth/second-factor.js';
import { config } from '../../shared/config.js';
import { tokenUsable } from '../../shared/domain/account-tokens.js';
import { hashPassword, scryptCost } from '../../shared/domain/passwords.js';
import { parseMailToken } from '../../shared/domain/secret-tokens.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { routes } from '../../shared/http/contract/routes/password-resets.js';
import { getAccountToken, invalidToken, resetPasswordWith } from '../../shared/store/account-tokens.js';
import { updateRequest } from '../../shared/store/expressions.js';
import { clearLoginThrottle } from '../../shared/store/login-throttle.js';
import { endUserSessions } from '../../shared/store/sessions.js';
import { getUser } from '../../shared/store/users.js';

export const handler = httpHandler(routes.confirmPasswordReset, async ({ body, now }) => {
  const parsed = parseMailToken(body.token, 'pr');
  const record = parsed && (await getAccountToken(parsed.id));
  if (!tokenUsable(body.token, 'pr', record, now)) throw invalidToken();
  const user = await getUser(record.user_id);
  if (!user) throw invalidToken();

  // With a second factor on, a code is needed too (401 second_factor_required without one); it is
  // spent in the reset's own transaction.
  const pass = passSecondFactor(user, { totp_code: body.totp_code, recovery_code: body.recovery_code }, now);
  const hash = await hashPassword(body.password, scryptCost(config.scryptLog2N));
  await resetPasswordWith(
    record,
    hash,
    pass.spend && { item: { Update: updateRequest(pass.spend) }, refused: wrongCode },
  );
  await Promise.all([endUserSessions(user.id), clearLoginThrottle(user.email, now)]);
  return { user: presentUser(pass.user) };
});
