import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';
import { isConditionFailure } from './transact.js';

export interface WindowHit {
  /** Requests counted in the window, this one included; `limit` when this one was refused. */
  count: number;
  limited: boolean;
}

/**
 * Counts one request in a fixed window with one conditional UpdateItem: the counter only grows
 * while it is under the limit, so a refused request costs no extra write and the count never
 * passes the limit. The item expires by TTL once its window is over.
 */
export async function hitWindow(policy: string, subject: string, windowStart: number, windowSeconds: number, limit: number): Promise<WindowHit> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateLimitWindow(policy, subject, windowSeconds, windowStart),
        UpdateExpression: 'ADD hits :one SET expires_at_epoch = :expires',
        ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': windowStart + windowSeconds + 60 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { count: Number(Attributes?.hits ?? 1), limited: false };
  } catch (error) {
    if (isConditionFailure(error)) return { count: limit, limited: true };
    throw error;
  }
}
