import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { db, tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { updateItem, when } from './expressions.js';
import { keys } from './keys.js';
import { bookWindow, emailSubject, windowAt, type WindowRef } from './rate-limits.js';

/**
 * The per-account log-in throttle: `RATE_LIMIT_LOGIN_EMAIL` (10 per 900 s) failed password or
 * second-factor attempts per email and fixed window; past that, every attempt for the email is
 * refused until the window ends, whatever its password and address.
 *
 * An attempt books one unit of the window's counter before the password is checked (the same
 * conditional write as the rate limits, beside the credential read), and gives it back when it
 * was not a failure. So the counter is exact under concurrency: a burst of guesses gets at most
 * the limit evaluated, not as many as raced past a read of the count.
 */
export interface LoginAttempt {
  window: WindowRef;
  /** False: the window's failures are at the limit, refuse with `retryAfter`. */
  admitted: boolean;
  /** Seconds until the window ends. */
  retryAfter: number;
}

function loginWindow(email: string, now: Date): { window: WindowRef; reset: number } {
  const rule = config.rateLimit('login_email');
  const { windowStart, reset } = windowAt(Math.floor(now.getTime() / 1000), rule.windowSeconds);
  const window = {
    policy: 'login_email',
    subject: emailSubject(email),
    windowStart,
    windowSeconds: rule.windowSeconds,
    limit: rule.limit,
  };
  return { window, reset };
}

const windowKey = ({ policy, subject, windowSeconds, windowStart }: WindowRef) =>
  keys.rateLimitWindow(policy, subject, windowSeconds, windowStart);

/** Books this attempt as a failure until it is shown not to be one. */
export async function takeLoginAttempt(email: string, now: Date): Promise<LoginAttempt> {
  const { window, reset } = loginWindow(email, now);
  const { granted } = await bookWindow(window, 1);
  return { window, admitted: granted > 0, retryAfter: reset };
}

/**
 * Gives an attempt back: it was not a failure (a right password, a right code). In the window it
 * was booked in, and never below zero (a reset may have cleared the window meanwhile).
 */
export async function returnLoginAttempt(attempt: LoginAttempt): Promise<void> {
  await conditionHeld(
    db().send(
      new UpdateCommand(
        updateItem({ key: windowKey(attempt.window), add: { hits: -1 }, when: when.compare('hits', '>', 0) }),
      ),
    ),
  );
}

/** Forgets the email's failures of the current window (password reset's confirm calls it). */
export async function clearLoginThrottle(email: string, now: Date = new Date()): Promise<void> {
  const { window } = loginWindow(email, now);
  await db().send(new DeleteCommand({ TableName: tableName(), Key: windowKey(window) }));
}
