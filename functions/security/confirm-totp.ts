import { wrongCode } from '../../shared/auth/second-factor.js';
import { sessionUser } from '../../shared/auth/session-user.js';
import { issueRecoveryCodes } from '../../shared/domain/recovery-codes.js';
import { totpStep } from '../../shared/domain/totp.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { enableTotp } from '../../shared/store/second-factor.js';
import { routes } from '../../shared/http/contract/routes/security.js';

const nothingPending = () =>
  new ApiError('invalid_state', {
    message: 'There is no second factor being set up.',
    hint: 'Start with POST /v1/me/totp, then confirm with a code of the secret it answers.',
  });

export const handler = httpHandler(routes.confirmTotp, async ({ body, auth, now }) => {
  const user = await sessionUser(auth.principal);
  const pending = user.totp_pending_secret;
  if (pending === undefined || user.totp_secret !== undefined) throw nothingPending();
  const step = totpStep(pending, body.code, now);
  if (step === undefined) throw wrongCode();
  const { codes, hashes } = issueRecoveryCodes();
  // The confirming code's step is the first one used: it cannot log in afterwards.
  if (!(await enableTotp(user.id, pending, step, hashes))) throw nothingPending();
  return { enabled: true as const, recovery_codes: codes };
});
