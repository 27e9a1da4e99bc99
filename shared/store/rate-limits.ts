import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { conditionOutcome } from './conditional.js';
import { updateItem, when } from './expressions.js';
import { keys } from './keys.js';
import { TABLE } from './table.js';

/** Emails are counted by a hash: the counter items hold no addresses. */
export const emailSubject = (email: string): string =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);

/** The fixed window of `windowSeconds` that `nowSeconds` falls in, and the seconds until it ends. */
export function windowAt(nowSeconds: number, windowSeconds: number): { windowStart: number; reset: number } {
  const windowStart = nowSeconds - (nowSeconds % windowSeconds);
  return { windowStart, reset: windowStart + windowSeconds - nowSeconds };
}

export interface WindowBooking {
  /** Requests of the window booked by this call (0: the window is full). */
  granted: number;
  /** The window's booked total once this call's share is in, as the item said. */
  booked: number;
}

export interface WindowRef {
  policy: string;
  subject: string;
  windowStart: number;
  windowSeconds: number;
  limit: number;
}

/**
 * Books up to `wanted` requests of a fixed window with one conditional UpdateItem: the total only
 * grows while it stays within the limit, so the bookings of all processes together never pass it.
 * When fewer than `wanted` remain, the failed condition returns the item, and what remains is
 * booked instead (the total only grows, so this ends). The item expires by TTL after its window.
 */
export async function bookWindow(window: WindowRef, wanted: number): Promise<WindowBooking> {
  const { policy, subject, windowStart, windowSeconds, limit } = window;
  let want = Math.min(wanted, limit);
  for (;;) {
    const outcome = await conditionOutcome(
      db().send(
        new UpdateCommand(
          updateItem({
            key: keys.rateLimitWindow(policy, subject, windowSeconds, windowStart),
            add: { hits: want },
            set: { [TABLE.ttlAttribute]: windowStart + windowSeconds + 60 },
            when: when.any(when.lacks('hits'), when.compare('hits', '<=', limit - want)),
            returns: 'UPDATED_NEW',
            returnOnRefusal: 'ALL_OLD',
          }),
        ),
      ),
    );
    if (outcome.held) return { granted: want, booked: Number(outcome.result.Attributes?.hits ?? want) };
    const booked = Number(outcome.item?.hits ?? limit);
    if (booked >= limit) return { granted: 0, booked: limit };
    want = Math.min(want, limit - booked);
  }
}
