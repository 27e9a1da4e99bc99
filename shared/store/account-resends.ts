/**
 * The resend limit of verification mails: 5 an hour per account, a fixed window of the rate-limit
 * store (the sign-up's mail is not booked). Refused, it says how many seconds are left in the window.
 */
import { bookWindow } from './rate-limits.js';

export const RESENDS_PER_HOUR = 5;
const WINDOW_SECONDS = 3600;

export async function bookResend(
  userId: string,
  now: Date,
): Promise<{ booked: true } | { booked: false; retryAfter: number }> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
  const { granted } = await bookWindow(
    {
      policy: 'verification_resend',
      subject: userId,
      windowStart,
      windowSeconds: WINDOW_SECONDS,
      limit: RESENDS_PER_HOUR,
    },
    1,
  );
  return granted > 0 ? { booked: true } : { booked: false, retryAfter: windowStart + WINDOW_SECONDS - nowSeconds };
}
