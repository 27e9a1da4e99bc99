import { newPasskey } from '../../shared/domain/passkeys.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/passkeys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPasskey } from '../../shared/http/present/passkeys.js';
import { passkeyRefusals, passkeyRefused } from '../../shared/passkeys/refusals.js';
import { registrationChallengeOf, verifyRegistration } from '../../shared/passkeys/registration.js';
import { addPasskey, takePasskeyChallenge } from '../../shared/store/passkeys.js';

export const handler = httpHandler(routes.addPasskey, async ({ auth, body, now }) => {
  const userId = auth.principal.userId;
  const challengeValue = registrationChallengeOf(body.response);
  if (!challengeValue) throw passkeyRefused('invalid_request', 'malformed');
  // Taken before the check: a challenge answers once, rightly or not.
  const challenge = await takePasskeyChallenge(challengeValue, 'registration', userId, now);
  if (!challenge) throw passkeyRefused('invalid_request', 'challenge');

  const verified = await verifyRegistration(body.response, challenge.challenge);
  if ('refused' in verified) throw passkeyRefused('invalid_request', verified.refused);

  const passkey = newPasskey(now, { user_id: userId, name: body.name, ...verified.credential });
  if (!(await addPasskey(passkey))) throw new ApiError('invalid_state', { hint: passkeyRefusals.registered });
  return { passkey: presentPasskey(passkey) };
});
