/** The email routes: verifying the address, resending the verification, changing the address. */
import { defineRoute } from '../route.js';
import { ChangeEmailBody, EmailChangePending, TokenBody, UserAnswer, VerificationSent } from '../schemas/accounts.js';

export const routes = {
  verifyEmail: defineRoute({
    method: 'POST',
    path: '/v1/email-verifications',
    handler: 'email/verify-email',
    tag: 'Identity',
    summary: 'Verifies an email address with the token of a verification mail (single use).',
    description:
      "Verifies an email address with the token of a verification mail: the sign-up's, a resend's, or the one sent to a new address by `PUT /v1/me/email`, which then becomes the account's address (`409 email_taken` if another account took it meanwhile). A token is single use and valid 24 hours; a newer mail voids the older. Unknown, altered, expired, used or voided → `400 invalid_token`.",
    auth: 'none',
    body: TokenBody,
    status: 200,
    response: UserAnswer,
    errors: ['invalid_token', 'email_taken'],
    mcp: false,
  }),
  resendEmailVerification: defineRoute({
    method: 'POST',
    path: '/v1/me/email-verification',
    handler: 'email/resend-email-verification',
    tag: 'Identity',
    summary: 'Sends a fresh verification mail to the account address; the older link stops working.',
    description:
      "Sends a fresh verification mail to the account address; the older link stops working. At most 5 an hour (the sign-up's mail not counted; the hour is a fixed window): the 6th → `429 rate_limited` with `Retry-After`. An address already verified → `409 invalid_state`.",
    auth: 'session',
    status: 200,
    response: VerificationSent,
    errors: ['rate_limited', 'invalid_state'],
  }),
  changeEmail: defineRoute({
    method: 'PUT',
    path: '/v1/me/email',
    handler: 'email/change-email',
    tag: 'Identity',
    summary: 'Starts an email change: the new address gets a link to confirm it, the old one a notice.',
    description:
      "Starts an email change: the new address gets a verification mail, the old one a notice. The address changes when the new one's link is used (`POST /v1/email-verifications`); until then log-in uses the old one. A pending address is not reserved. An address already taken → `409 email_taken`; a wrong password → `401 invalid_credentials`. Counted with the log-in limits per client IP.",
    auth: 'session',
    body: ChangeEmailBody,
    status: 200,
    response: EmailChangePending,
    strictLimits: 'login',
    errors: ['email_taken', 'invalid_credentials'],
  }),
};
