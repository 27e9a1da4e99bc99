/**
 * A delivery whose attempt the send gate deferred: its due time moves to when the deferred message
 * comes back, so the sweeper does not see it overdue and add a second message, and the activity
 * shows when it will be tried. Only while it is still pending for the same attempt.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryRecord } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { deliveryIndexes } from './entities.js';
import { keys } from './keys.js';
import { PREV_STATUS } from './webhook-deliveries.js';
import { isConditionFailure } from './transact.js';

export async function deferDelivery(delivery: DeliveryRecord, until: string): Promise<boolean> {
  // Still pending: prev_status = status tells the stream consumer the totals do not change.
  const fields = { next_attempt_at: until, [PREV_STATUS]: 'pending', ...deliveryIndexes(delivery, { due: until }) };
  const entries = Object.entries(fields);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookDelivery(delivery.id),
        UpdateExpression: 'SET ' + entries.map((_, i) => `#f${i} = :v${i}`).join(', '),
        ConditionExpression: '#status = :pending AND attempt_count = :done',
        ExpressionAttributeNames: {
          '#status': 'status',
          ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':done': delivery.attempt_count,
          ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
