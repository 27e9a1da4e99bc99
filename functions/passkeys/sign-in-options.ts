import { newId } from '../../shared/domain/ids.js';
import { newChallengeValue, newPasskeyChallenge } from '../../shared/domain/passkeys.js';
import { routes } from '../../shared/http/contract/routes/passkeys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { signInOptions } from '../../shared/passkeys/sign-in.js';
import { putPasskeyChallenge } from '../../shared/store/passkeys.js';

export const handler = httpHandler(routes.passkeySignInOptions, async ({ now }) => {
  const challenge = newPasskeyChallenge(now, {
    id: newId(),
    ceremony: 'authentication',
    challenge: newChallengeValue(),
    user_id: null,
  });
  await putPasskeyChallenge(challenge);
  return { challenge_id: challenge.id, options: signInOptions(challenge.challenge) };
});
