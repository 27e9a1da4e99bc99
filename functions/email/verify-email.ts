import { tokenUsable } from '../../shared/domain/account-tokens.js';
import { parseMailToken } from '../../shared/domain/secret-tokens.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { routes } from '../../shared/http/contract/routes/email.js';
import { changeEmailWith, getAccountToken, invalidToken, verifyEmailWith } from '../../shared/store/account-tokens.js';
import { findCredential, getUser } from '../../shared/store/users.js';
import { listMemberships } from '../../shared/store/workspaces.js';

export const handler = httpHandler(routes.verifyEmail, async ({ body, now }) => {
  const parsed = parseMailToken(body.token, 'ev');
  const record = parsed && (await getAccountToken(parsed.id));
  if (!tokenUsable(body.token, 'ev', record, now)) throw invalidToken();
  const user = await getUser(record.user_id);
  if (!user) throw invalidToken();

  if (record.purpose === 'change_email') {
    const [credential, memberships] = await Promise.all([findCredential(user.email), listMemberships(user.id)]);
    if (!credential) throw invalidToken();
    await changeEmailWith(
      record,
      user,
      credential,
      memberships.map((m) => m.workspace_id),
    );
    return { user: presentUser({ ...user, email: record.email, email_verified: true }) };
  }
  await verifyEmailWith(record);
  return { user: presentUser({ ...user, email_verified: true }) };
});
