/**
 * Webhook deliveries and their attempts. Every status change is one single-item conditional write
 * of the delivery (conditioned on the state it leaves) that also records the status it left
 * (`prev_status`; null when it creates the delivery): the stream consumer folds those records into
 * the workspace totals (webhooks/totals-from-stream.ts), so no write here touches a counter.
 *
 * The latest attempt rides on the delivery item (`last_attempt`), written by the same update as its
 * outcome; it moves to an attempt item of its own only when the next attempt's outcome replaces it.
 * A delivery that succeeds at its first attempt thus writes no attempt item at all.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AttemptRecord, DeliveryRecord, DeliveryStatus } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { deliveryExpiresAt, entities, eventExpiresAt, type StoredDelivery } from './entities.js';
import { conditionRequest, when, type Condition } from './expressions.js';
import { getItem, indexChanges, itemOf, pathAttributes, putItem, recordOf } from './items.js';
import { keys } from './keys.js';
import { queryPath, queryPathItems } from './paths.js';
import { TABLE } from './table.js';
import { sendUpdate } from './update.js';

/** The attribute that tells the stream consumer which status a write left. */
export const PREV_STATUS = 'prev_status';

/**
 * A status change `from` → `fields.status`: SET the given fields and `prev_status`, and move the
 * delivery on its access paths (entities.ts: the activity by `updated_at`, the due shard or its
 * endpoint's failed list by its new status), if `conditions` hold.
 */
function changeStatus(
  delivery: StoredDelivery,
  from: DeliveryStatus,
  fields: Partial<StoredDelivery> & { updated_at: string; status: DeliveryStatus },
  conditions: readonly Condition[],
): Promise<boolean> {
  const placed = indexChanges(entities.webhookDelivery, { ...delivery, ...fields });
  return conditionHeld(
    sendUpdate({
      key: keys.webhookDelivery(delivery.id),
      set: {
        ...fields,
        [PREV_STATUS]: from,
        ...placed.set,
        [TABLE.ttlAttribute]: deliveryExpiresAt(fields.updated_at),
      },
      remove: placed.remove,
      when: conditions,
    }),
  );
}

export type CreateResult = 'created' | 'exists';

/**
 * Creates a pending delivery, once: a redelivered stream record creates nothing twice. The fan-out
 * read the endpoint as active just before; an endpoint revoked or disabled in between is caught by
 * the sender, which ends such a delivery as failed without sending it. `dueEntry: false` leaves it
 * off the sweeper's due path (its first message is on a durable queue).
 */
export async function createDelivery(
  delivery: DeliveryRecord,
  options: { dueEntry?: boolean } = {},
): Promise<CreateResult> {
  const item: Record<string, unknown> = { ...itemOf(entities.webhookDelivery, delivery), [PREV_STATUS]: null };
  if (options.dueEntry === false)
    for (const attribute of Object.keys(pathAttributes({ due: entities.webhookDelivery.paths.due }, delivery)))
      delete item[attribute];
  const created = await conditionHeld(
    db().send(new PutCommand({ ...conditionRequest(when.absent()), Item: item, TableName: tableName() })),
  );
  return created ? 'created' : 'exists';
}

export function getDelivery(id: string): Promise<StoredDelivery | undefined> {
  return getItem(entities.webhookDelivery, keys.webhookDelivery(id), { consistent: true });
}

/**
 * pending → delivering for attempt `attempt`, only if the delivery is pending with exactly
 * `attempt - 1` completed attempts. Returns the delivery as marked. The sender's claim of the
 * attempt is its lease (store/webhook-send-slots.ts); this marks an attempt that outlasts a moment
 * as delivering, for the activity, the totals and the sweeper (which tells a stale mark by
 * `claimed_at`).
 *
 * The mark moves no index key and leaves `updated_at` and the expiry alone: the outcome follows
 * within one attempt timeout and moves them anyway. The delivery stays at its due time in the
 * sweeper's index (already past); the activity keeps it at its last creation, outcome or restart.
 */
export async function claimDelivery<D extends DeliveryRecord>(
  delivery: D,
  attempt: number,
  now: string,
): Promise<D | undefined> {
  const fields = { status: 'delivering' as const, claimed_attempt: attempt, claimed_at: now };
  const claimed = await conditionHeld(
    sendUpdate({
      key: keys.webhookDelivery(delivery.id),
      set: { ...fields, [PREV_STATUS]: 'pending' },
      when: [when.is('status', 'pending'), when.is('attempt_count', attempt - 1)],
    }),
  );
  return claimed ? { ...delivery, ...fields } : undefined;
}

/** The conditions under which a write may end the attempt the sender holds: the delivery still as the sender left it. */
const heldBy = (delivery: DeliveryRecord, attempt: number): Condition[] =>
  delivery.status === 'delivering'
    ? [when.is('status', 'delivering'), when.is('claimed_attempt', attempt), when.is('claimed_at', delivery.claimed_at)]
    : [when.is('status', 'pending'), when.is('attempt_count', attempt - 1)];

export interface AttemptOutcome {
  status: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

/**
 * Records attempt `attempt.number` and moves the delivery (pending, or delivering when the attempt
 * was marked) to its outcome, if it is still as the sender left it: one update of the delivery that
 * also keeps the attempt (`last_attempt`). The attempt it replaces is written to its own item
 * first, so a crash between the two writes loses nothing and counts nothing twice (keyed by its
 * number, the item is simply rewritten when the attempt's outcome is recorded again).
 */
export async function completeAttempt(
  delivery: StoredDelivery,
  attempt: AttemptRecord,
  outcome: AttemptOutcome,
  now: string,
): Promise<boolean> {
  const previous = delivery.last_attempt;
  if (previous && previous.number < attempt.number)
    await putItem(entities.webhookAttempt, previous, { ifAbsent: false });
  return changeStatus(
    delivery,
    delivery.status,
    {
      status: outcome.status,
      attempt_count: attempt.number,
      last_status_code: attempt.status_code,
      last_error: attempt.error,
      next_attempt_at: outcome.nextAttemptAt,
      delivered_at: outcome.deliveredAt,
      claimed_attempt: null,
      claimed_at: null,
      updated_at: now,
      last_attempt: attempt,
    },
    heldBy(delivery, attempt.number),
  );
}

/**
 * pending (or delivering) → failed without an attempt for attempt `attempt` (the endpoint was
 * revoked, disabled or deleted meanwhile, or the event is gone).
 */
export async function abandonDelivery(
  delivery: StoredDelivery,
  attempt: number,
  error: string,
  now: string,
): Promise<boolean> {
  return changeStatus(
    delivery,
    delivery.status,
    {
      status: 'failed',
      last_error: error,
      next_attempt_at: null,
      claimed_attempt: null,
      claimed_at: null,
      updated_at: now,
    },
    heldBy(delivery, attempt),
  );
}

/** delivering → pending for a claim the sweeper found abandoned; the same attempt is made again. */
export async function releaseClaim(delivery: StoredDelivery, now: string): Promise<boolean> {
  return changeStatus(
    delivery,
    'delivering',
    { status: 'pending', next_attempt_at: now, claimed_attempt: null, claimed_at: null, updated_at: now },
    [when.is('status', 'delivering'), when.is('claimed_at', delivery.claimed_at)],
  );
}

/** failed → pending (manual retry): numbering continues, the webhook-id stays. Returns the delivery as restarted, or undefined when it was no longer failed. */
export async function restartDelivery(delivery: StoredDelivery, now: string): Promise<StoredDelivery | undefined> {
  const fields = {
    status: 'pending' as const,
    next_attempt_at: now,
    last_error: delivery.last_error,
    updated_at: now,
    restarted_at: now,
  };
  const restarted = await changeStatus(delivery, 'failed', fields, [
    when.is('status', 'failed'),
    when.is('attempt_count', delivery.attempt_count),
  ]);
  if (!restarted) return undefined;
  await extendEventExpiry(delivery.webhook_event_id, now);
  return { ...delivery, ...fields };
}

/**
 * A restarted delivery is attempted again through the whole retry schedule and can be restarted
 * again until it expires: its event item (the body) must live that long from now. Never shortens,
 * and never writes an event item that is gone.
 */
async function extendEventExpiry(eventId: string, now: string): Promise<void> {
  const expiresAt = eventExpiresAt(now);
  await conditionHeld(
    sendUpdate({
      key: keys.event(eventId),
      set: { [TABLE.ttlAttribute]: expiresAt },
      when: [when.exists(), when.compare(TABLE.ttlAttribute, '<', expiresAt)],
    }),
  );
}

/** The delivery and its attempts (oldest first), in one query of its partition. */
export async function getDeliveryWithAttempts(
  id: string,
): Promise<{ delivery: DeliveryRecord; attempts: AttemptRecord[] } | undefined> {
  const items = await queryPathItems(entities.webhookDelivery, 'withAttempts', { id }, { consistent: true });
  const item = items.find((found) => found.entity === entities.webhookDelivery.entity);
  if (!item) return undefined;
  const { last_attempt: latest, ...delivery } = recordOf(entities.webhookDelivery, item);
  const attempts = items.filter((found) => found !== item).map((found) => recordOf(entities.webhookAttempt, found));
  // The latest attempt is on the delivery; its own item exists too once a later outcome replaced it there.
  if (latest && !attempts.some((a) => a.number === latest.number)) attempts.push(latest);
  attempts.sort((a, b) => a.number - b.number);
  return { delivery, attempts };
}

/**
 * Pending or delivering deliveries due at or before `before`, from the sweeper index (a claimed one
 * keeps the due time it was claimed at: the caller judges the claim by `claimed_at`), the earliest
 * `limit` of each shard: the next sweep takes the rest.
 */
export async function listDueDeliveries(before: string, limit = 500): Promise<DeliveryRecord[]> {
  const shards = await Promise.all(
    keys.webhookDueShards.map((shard) =>
      queryPath(
        entities.webhookDelivery,
        'due',
        { due_shard: shard },
        { range: { atMost: `${before}#~` }, max: limit },
      ),
    ),
  );
  return shards.flat();
}
