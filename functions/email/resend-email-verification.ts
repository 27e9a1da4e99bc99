import { sessionUser } from '../../shared/auth/session-user.js';
import { verificationMail } from '../../shared/domain/account-mail.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { routes } from '../../shared/http/contract/routes/email.js';
import { bookResend, RESENDS_PER_HOUR } from '../../shared/store/account-resends.js';
import { issueAccountToken } from '../../shared/store/account-tokens.js';

export const handler = httpHandler(routes.resendEmailVerification, async ({ auth, event, now }) => {
  const user = await sessionUser(auth.principal);
  if (user.email_verified)
    throw new ApiError('invalid_state', {
      message: 'The email address is already verified.',
      hint: 'Nothing to do; to use another address, change it with PUT /v1/me/email.',
    });
  const booking = await bookResend(user.id, now);
  if (!booking.booked)
    throw new ApiError('rate_limited', {
      message: `At most ${RESENDS_PER_HOUR} verification mails an hour; retry in ${booking.retryAfter} s.`,
      hint: 'Use the link of the latest mail (valid 24 hours), or wait for the number of seconds in Retry-After.',
      headers: { 'retry-after': String(booking.retryAfter) },
    });
  const { record, mails } = verificationMail(now, publicBaseUrl(event), user);
  await issueAccountToken(record, mails);
  return { sent: true as const, expires_at: record.expires_at };
});
