/**
 * A delivery whose attempt the send gate deferred: its due time moves to when the deferred message
 * comes back, so the sweeper does not see it overdue and add a second message, and the activity
 * shows when it will be tried. Only while it is still pending for the same attempt.
 */
import type { DeliveryRecord } from '../domain/webhooks.js';
import { conditionHeld } from './conditional.js';
import { entities } from './entities.js';
import { when } from './expressions.js';
import { indexChanges } from './items.js';
import { keys } from './keys.js';
import { PREV_STATUS } from './webhook-deliveries.js';
import { sendUpdate } from './update.js';

export async function deferDelivery(delivery: DeliveryRecord, until: string): Promise<boolean> {
  const placed = indexChanges(entities.webhookDelivery, { ...delivery, status: 'pending', next_attempt_at: until });
  return conditionHeld(
    sendUpdate({
      key: keys.webhookDelivery(delivery.id),
      // Still pending: prev_status = status tells the stream consumer the totals do not change.
      set: { next_attempt_at: until, [PREV_STATUS]: 'pending', ...placed.set },
      remove: placed.remove,
      when: [when.is('status', 'pending'), when.is('attempt_count', delivery.attempt_count)],
    }),
  );
}
