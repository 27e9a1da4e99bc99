/** The password reset routes: asking for a reset mail, and setting the password with its token. */
import { defineRoute } from '../route.js';
import {
  PasswordResetBody,
  PasswordResetConfirmBody,
  PasswordResetRequested,
  UserAnswer,
} from '../schemas/accounts.js';

export const routes = {
  requestPasswordReset: defineRoute({
    method: 'POST',
    path: '/v1/password-resets',
    handler: 'password-resets/request-password-reset',
    tag: 'Identity',
    summary: 'Mails a password reset link valid 30 minutes; answers alike whether or not the account exists.',
    description:
      'Mails a password reset link (valid 30 minutes, single use; a newer request voids the older) to the address, if an account has it. The answer, and the work behind it, are the same whether or not one does (no account enumeration). Counted with the sign-up limits per client IP and per address.',
    auth: 'none',
    body: PasswordResetBody,
    status: 200,
    response: PasswordResetRequested,
    strictLimits: 'signup',
    errors: [],
    mcp: false,
  }),
  confirmPasswordReset: defineRoute({
    method: 'POST',
    path: '/v1/password-resets/confirm',
    handler: 'password-resets/confirm-password-reset',
    tag: 'Identity',
    summary: 'Sets a new password with the token of a reset mail; every session of the account ends.',
    description:
      'Sets a new password with the token of a reset mail: every session of the account ends and its log-in throttle clears. With a second factor enabled, `totp_code` or `recovery_code` is needed too (`401 second_factor_required` without one, `401 invalid_credentials` for a wrong or used one; the token stays usable). Unknown, altered, expired, used or voided token → `400 invalid_token`.',
    auth: 'none',
    body: PasswordResetConfirmBody,
    status: 200,
    response: UserAnswer,
    strictLimits: 'login',
    errors: ['invalid_token', 'invalid_credentials', 'second_factor_required'],
    mcp: false,
  }),
};
