import { newId } from '../../shared/domain/ids.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../shared/domain/passwords.js';
import { issueToken } from '../../shared/domain/secret-tokens.js';
import { ApiError } from '../../shared/http/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { present } from '../../shared/http/present.js';
import { putSession } from '../../shared/store/sessions.js';
import { findCredential, getUser } from '../../shared/store/users.js';
import { routes } from './routes.js';

const SESSION_DAYS = 30;

export const handler = httpHandler(routes.createSession, async ({ body, now }) => {
  const credential = await findCredential(body.email);
  // Unknown emails cost a hash too, so timing does not reveal which emails have accounts.
  const valid = await verifyPassword(body.password, credential?.password_hash ?? DUMMY_PASSWORD_HASH);
  const user = credential && valid ? await getUser(credential.user_id) : undefined;
  if (!user) throw new ApiError('invalid_credentials', { hint: 'Check the email and password; passwords are case-sensitive.' });

  const id = newId();
  const { token, secretHash } = issueToken('st', id);
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 86_400_000).toISOString();
  await putSession({ id, user_id: user.id, secret_hash: secretHash, created_at: now.toISOString(), expires_at: expiresAt });
  return { session: { token, expires_at: expiresAt }, user: present.user(user) };
});
