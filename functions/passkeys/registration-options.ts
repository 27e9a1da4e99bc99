import { newChallengeValue, newPasskeyChallenge } from '../../shared/domain/passkeys.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/passkeys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { creationOptions } from '../../shared/passkeys/creation-options.js';
import { listUserPasskeys, putPasskeyChallenge } from '../../shared/store/passkeys.js';
import { getUser } from '../../shared/store/users.js';

export const handler = httpHandler(routes.passkeyRegistrationOptions, async ({ auth, now, reads }) => {
  const userId = auth.principal.userId;
  // A registration's challenge is found by its value, which the response's clientDataJSON carries.
  const challenge = newChallengeValue();
  // One round trip: the challenge is stored while the user and their passkeys (to exclude) are read.
  const [user, existing] = await Promise.all([
    getUser(userId, reads),
    listUserPasskeys(userId),
    putPasskeyChallenge(
      newPasskeyChallenge(now, { id: challenge, ceremony: 'registration', challenge, user_id: userId }),
    ),
  ]);
  if (!user) throw new ApiError('unauthorized', { hint: 'The account no longer exists.' });
  return creationOptions(user, existing, challenge);
});
