import { issueSession } from '../../shared/domain/entities.js';
import { passkeyIdOf } from '../../shared/domain/passkeys.js';
import { routes } from '../../shared/http/contract/routes/passkeys.js';
import { sessionClientOf } from '../../shared/http/session-client.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentUser } from '../../shared/http/present/identity.js';
import { passkeyRefused } from '../../shared/passkeys/refusals.js';
import { userHandleOf, verifySignIn } from '../../shared/passkeys/sign-in.js';
import { getPasskey, signInWithPasskey, takePasskeyChallenge } from '../../shared/store/passkeys.js';
import { getUser } from '../../shared/store/users.js';

/**
 * Two round trips: the challenge is taken (a conditional delete) while the passkey and the user its
 * response names are read (one BatchGetItem); then the counter update and the session are one
 * transaction.
 */
export const handler = httpHandler(routes.signInWithPasskey, async ({ body, now, reads, event }) => {
  const { response } = body;
  if (response.id !== response.rawId) throw passkeyRefused('invalid_credentials', 'malformed');
  const userId = userHandleOf(response);
  const [challenge, passkey, named] = await Promise.all([
    takePasskeyChallenge(body.challenge_id, 'authentication', null, now),
    getPasskey(passkeyIdOf(response.id), reads),
    userId ? getUser(userId, reads) : undefined,
  ]);
  if (!challenge) throw passkeyRefused('invalid_credentials', 'challenge');
  if (!passkey || passkey.credential_id !== response.id) throw passkeyRefused('invalid_credentials', 'unknownPasskey');

  const verified = verifySignIn(response, challenge.challenge, passkey);
  if ('refused' in verified) throw passkeyRefused('invalid_credentials', verified.refused);
  // verifySignIn held the user handle to the passkey's owner, so `named` is the owner.
  if (!named) throw passkeyRefused('invalid_credentials', 'unknownPasskey');

  const { token, session } = issueSession(now, {
    user_id: named.id,
    method: 'passkey',
    second_factor: null,
    client: sessionClientOf(event),
  });
  if (!(await signInWithPasskey(passkey, verified.counter, session)))
    throw passkeyRefused('invalid_credentials', 'counter');
  return { session: { token, expires_at: session.expires_at }, user: presentUser(named) };
});
