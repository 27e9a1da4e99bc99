import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';

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
    try {
      const { Attributes } = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.rateLimitWindow(policy, subject, windowSeconds, windowStart),
          UpdateExpression: 'ADD hits :want SET expires_at_epoch = :expires',
          ConditionExpression: 'attribute_not_exists(hits) OR hits <= :room',
          ExpressionAttributeValues: {
            ':want': want,
            ':room': limit - want,
            ':expires': windowStart + windowSeconds + 60,
          },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { granted: want, booked: Number(Attributes?.hits ?? want) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const booked = Number(error.Item?.hits?.N ?? limit);
      if (booked >= limit) return { granted: 0, booked: limit };
      want = Math.min(want, limit - booked);
    }
  }
}
