import { config } from '../../shared/config.js';
import { newSession } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  scryptCost,
  verifyPassword,
} from '../../shared/domain/passwords.js';
import { issueToken } from '../../shared/domain/secret-tokens.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { replacePasswordHash } from '../../shared/store/passwords.js';
import { putSession } from '../../shared/store/sessions.js';
import { findCredential, getUser } from '../../shared/store/users.js';
import { routes } from '../../shared/http/contract/routes/identity.js';

export const handler = httpHandler(routes.createSession, async ({ body, now }) => {
  const cost = scryptCost(config.scryptLog2N);
  const credential = await findCredential(body.email);
  // Unknown emails cost a hash too, so timing does not reveal which emails have accounts.
  const valid = await verifyPassword(body.password, credential?.password_hash ?? dummyPasswordHash(cost));
  const user = credential && valid ? await getUser(credential.user_id) : undefined;
  if (!user)
    throw new ApiError('invalid_credentials', { hint: 'Check the email and password; passwords are case-sensitive.' });

  // The password is at hand only now: a hash made at a lower cost is replaced by one at the current cost.
  const upgrade = needsRehash(credential!.password_hash, cost)
    ? hashPassword(body.password, cost).then((hash) => replacePasswordHash(body.email, credential!.password_hash, hash))
    : undefined;
  const id = newId();
  const { token, secretHash } = issueToken('st', id);
  const session = newSession(now, { id, user_id: user.id, secret_hash: secretHash });
  await Promise.all([putSession(session), upgrade]);
  return { session: { token, expires_at: session.expires_at }, user: presentUser(user) };
});
