/**
 * Webhook deliveries, their attempts and the workspace totals. Every status change is one
 * TransactWriteItems: the delivery (conditioned on the state it leaves), the totals counters and,
 * for an attempt's outcome, the attempt record.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttemptRecord, DeliveryRecord, DeliveryStatus } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { deliveryExpiresAt, deliveryIndexes, deliverySlotOf, entities, eventExpiresAt, type DeliverySlot } from './entities.js';
import { TABLE } from './table.js';
import { getItem, putTransactItem, recordOf } from './items.js';
import { keys } from './keys.js';
import { queryAll } from './pagination.js';
import { isConditionFailure, transactConditional, type TransactItem } from './transact.js';

type Counter = 'total' | DeliveryStatus;

export const TOTALS_SHARDS = 8;
const totalsShard = (deliveryId: string) => parseInt(deliveryId.slice(-2), 16) % TOTALS_SHARDS;

/**
 * The workspace totals live in TOTALS_SHARDS counter items, each delivery always in the same one:
 * a single item would be touched by every status change of the workspace and make concurrent
 * deliveries' transactions conflict. Reading sums the shards (one Query).
 */
function totalsUpdate(delivery: Pick<DeliveryRecord, 'id' | 'workspace_id'>, changes: Partial<Record<Counter, number>>): TransactItem {
  const entries = Object.entries(changes);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookTotals(delivery.workspace_id, totalsShard(delivery.id)),
      UpdateExpression: 'SET entity = :entity ADD ' + entries.map((_, i) => `#c${i} :d${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
      ExpressionAttributeValues: { ':entity': 'webhook_totals', ...Object.fromEntries(entries.map(([, delta], i) => [`:d${i}`, delta])) },
    },
  };
}

/** SET the given fields and the index slot (REMOVE the second index when the slot is null), with a condition. */
function deliveryUpdate(
  delivery: Pick<DeliveryRecord, 'id' | 'workspace_id'>,
  fields: Partial<DeliveryRecord> & { updated_at: string },
  slot: DeliverySlot,
  condition: string,
  conditionValues: Record<string, unknown>,
): TransactItem {
  const index = deliveryIndexes({ ...delivery, updated_at: fields.updated_at }, slot);
  const set = Object.entries({ ...fields, ...index, [TABLE.ttlAttribute]: deliveryExpiresAt(fields.updated_at) });
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookDelivery(delivery.id),
      UpdateExpression:
        'SET ' + set.map((_, i) => `#f${i} = :v${i}`).join(', ') + (slot ? '' : ' REMOVE gsi2pk, gsi2sk'),
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(set.map(([name], i) => [`#f${i}`, name])) },
      ExpressionAttributeValues: { ...conditionValues, ...Object.fromEntries(set.map(([, value], i) => [`:v${i}`, value])) },
    },
  };
}

export type CreateResult = 'created' | 'exists' | 'endpoint_inactive';

/**
 * Creates a pending delivery and bumps the totals, only if the endpoint is still active (read in
 * the transaction, so a revoke stops new deliveries at once) and the delivery does not exist yet
 * (a redelivered stream record creates nothing twice).
 */
export async function createDelivery(delivery: DeliveryRecord): Promise<CreateResult> {
  const outcome = await transactConditional([
    putTransactItem(entities.webhookDelivery, delivery),
    totalsUpdate(delivery, { total: 1, pending: 1 }),
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: keys.webhookEndpoint(delivery.webhook_endpoint_id),
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'active' },
      },
    },
  ]);
  if (outcome.ok) return 'created';
  return outcome.failed[0] ? 'exists' : 'endpoint_inactive';
}

/** True when the transaction was applied, false when one of its conditions did not hold. */
async function transactIf(items: TransactItem[]): Promise<boolean> {
  return (await transactConditional(items)).ok;
}

export function getDelivery(id: string): Promise<DeliveryRecord | undefined> {
  return getItem(entities.webhookDelivery, keys.webhookDelivery(id), { consistent: true });
}

/**
 * pending → delivering for attempt `attempt`, only if the delivery is pending with exactly
 * `attempt - 1` completed attempts: a duplicate or stale queue message claims nothing.
 * `staleAt` is when the sweeper may consider the claim abandoned.
 */
export async function claimDelivery(delivery: DeliveryRecord, attempt: number, now: string, staleAt: string): Promise<DeliveryRecord | undefined> {
  const { id, workspace_id: workspaceId } = delivery;
  const fields = { status: 'delivering' as const, claimed_attempt: attempt, claimed_at: now, updated_at: now };
  const claimed = await transactIf([
    deliveryUpdate(
      { id, workspace_id: workspaceId },
      fields,
      { due: staleAt },
      '#status = :pending AND attempt_count = :done',
      { ':pending': 'pending', ':done': attempt - 1 },
    ),
    totalsUpdate({ id, workspace_id: workspaceId }, { pending: -1, delivering: 1 }),
  ]);
  return claimed ? { ...delivery, ...fields } : undefined;
}

export interface AttemptOutcome {
  status: 'succeeded' | 'failed' | 'pending';
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

/** Records attempt `attempt.number` and moves delivering → outcome, if the claim is still ours. */
export async function completeAttempt(delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome, now: string): Promise<boolean> {
  return transactIf([
    deliveryUpdate(
      delivery,
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
      },
      deliverySlotOf({ status: outcome.status, next_attempt_at: outcome.nextAttemptAt, claimed_at: null, webhook_endpoint_id: delivery.webhook_endpoint_id }),
      '#status = :delivering AND claimed_attempt = :n AND claimed_at = :claimed',
      { ':delivering': 'delivering', ':n': attempt.number, ':claimed': delivery.claimed_at },
    ),
    putTransactItem(entities.webhookAttempt, attempt, { ifAbsent: false }),
    totalsUpdate(delivery, { delivering: -1, [outcome.status]: 1 }),
  ]);
}

/** delivering → failed without an attempt (the endpoint was revoked, disabled or deleted meanwhile). */
export async function abandonDelivery(delivery: DeliveryRecord, error: string, now: string): Promise<boolean> {
  return transactIf([
    deliveryUpdate(
      delivery,
      { status: 'failed', last_error: error, next_attempt_at: null, claimed_attempt: null, claimed_at: null, updated_at: now },
      { failedOf: delivery.webhook_endpoint_id },
      '#status = :delivering AND claimed_at = :claimed',
      { ':delivering': 'delivering', ':claimed': delivery.claimed_at },
    ),
    totalsUpdate(delivery, { delivering: -1, failed: 1 }),
  ]);
}

/** delivering → pending for a claim the sweeper found abandoned; the same attempt is made again. */
export async function releaseClaim(delivery: DeliveryRecord, now: string): Promise<boolean> {
  return transactIf([
    deliveryUpdate(
      delivery,
      { status: 'pending', next_attempt_at: now, claimed_attempt: null, claimed_at: null, updated_at: now },
      { due: now },
      '#status = :delivering AND claimed_at = :claimed',
      { ':delivering': 'delivering', ':claimed': delivery.claimed_at },
    ),
    totalsUpdate(delivery, { delivering: -1, pending: 1 }),
  ]);
}

/** failed → pending (manual retry): numbering continues, the webhook-id stays. Returns the delivery as restarted, or undefined when it was no longer failed. */
export async function restartDelivery(delivery: DeliveryRecord, now: string): Promise<DeliveryRecord | undefined> {
  const fields = { status: 'pending' as const, next_attempt_at: now, last_error: delivery.last_error, updated_at: now, restarted_at: now };
  const applied = await transactIf([
    deliveryUpdate(
      delivery,
      fields,
      { due: now },
      '#status = :failed AND attempt_count = :done',
      { ':failed': 'failed', ':done': delivery.attempt_count },
    ),
    totalsUpdate(delivery, { failed: -1, pending: 1 }),
  ]);
  if (!applied) return undefined;
  await extendEventExpiry(delivery.webhook_event_id, now);
  return { ...delivery, ...fields };
}

/**
 * A restarted delivery is attempted again through the whole retry schedule and can be restarted
 * again until it expires: its event item (the body) must live that long from now. Never shortens;
 * an event that is gone (a delivery that carries its own payload) is left alone.
 */
async function extendEventExpiry(eventId: string, now: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.event(eventId),
        UpdateExpression: 'SET #ttl = :ttl',
        ConditionExpression: 'attribute_exists(pk) AND #ttl < :ttl',
        ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':ttl': eventExpiresAt(now) },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** The delivery and its attempts (oldest first), in one query of its partition. */
export async function getDeliveryWithAttempts(id: string): Promise<{ delivery: DeliveryRecord; attempts: AttemptRecord[] } | undefined> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.webhookDeliveryPartition(id) },
    ConsistentRead: true,
  });
  const delivery = items.find((item) => item.entity === entities.webhookDelivery.entity);
  const attempts = items.filter((item) => item !== delivery).map((item) => recordOf(entities.webhookAttempt, item));
  return delivery ? { delivery: recordOf(entities.webhookDelivery, delivery), attempts } : undefined;
}

/** Pending or delivering deliveries due (or stale) at or before `before`, from the sweeper index. */
export async function listDueDeliveries(before: string, limit = 500): Promise<DeliveryRecord[]> {
  const found: DeliveryRecord[] = [];
  for (const shard of keys.webhookDueShards) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :before',
          ExpressionAttributeValues: { ':pk': shard, ':before': `${before}#~` },
          ExclusiveStartKey: start,
          Limit: limit,
        }),
      );
      for (const item of page.Items ?? []) found.push(recordOf(entities.webhookDelivery, item));
      start = found.length < limit ? page.LastEvaluatedKey : undefined;
    } while (start);
  }
  return found;
}
