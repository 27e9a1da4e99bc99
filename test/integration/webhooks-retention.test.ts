import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { newWebhookEndpoint } from '../../shared/domain/webhooks.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { TABLE } from '../../shared/store/table.js';
import { listDeliveries } from '../../shared/store/webhook-delivery-log.js';
import {
  claimDelivery,
  completeAttempt,
  createDelivery,
  getDelivery,
  getDeliveryWithAttempts,
} from '../../shared/store/webhook-deliveries.js';
import { putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { getTotals } from '../../shared/store/webhook-totals.js';
import { newDelivery } from '../../shared/webhooks/fan-out.js';

const DAY = 86_400;
const epoch = (iso: string) => Math.ceil(Date.parse(iso) / 1000);
const rawItem = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** One delivery through create, claim and a successful first attempt, as the pipeline makes it. */
async function deliveredOnce(workspaceId = newId(), outcome: 'succeeded' | 'pending' = 'succeeded') {
  const endpoint = newWebhookEndpoint(new Date(), workspaceId, {
    name: 'retention',
    url: 'https://example.com/hook',
    event_types: ['profile.followed'],
    profile_ids: [newId()],
  });
  await putEndpoint(endpoint);
  const event = {
    id: newId(),
    type: 'profile.followed' as const,
    profile_id: endpoint.profile_ids[0]!,
    workspace_id: workspaceId,
    created_at: new Date().toISOString(),
    data: {},
  };
  const delivery = newDelivery(event, endpoint, new Date().toISOString());
  expect(await createDelivery(delivery)).toBe('created');
  const claimedAt = new Date().toISOString();
  const claimed = (await claimDelivery(delivery, 1, claimedAt))!;
  expect(claimed).toMatchObject({ status: 'delivering', claimed_attempt: 1 });
  const done = new Date().toISOString();
  const attempt = {
    delivery_id: delivery.id,
    number: 1,
    started_at: claimedAt,
    duration_ms: 3,
    status_code: 200,
    error: null,
    response_body: 'ok',
  };
  expect(
    await completeAttempt(
      claimed,
      attempt,
      outcome === 'succeeded'
        ? { status: 'succeeded', nextAttemptAt: null, deliveredAt: done }
        : { status: 'pending', nextAttemptAt: done, deliveredAt: null },
      done,
    ),
  ).toBe(true);
  return { workspaceId, delivery: (await getDelivery(delivery.id))!, attempt };
}

afterEach(() => {
  delete process.env.WEBHOOK_RETENTION_DAYS;
});

describe('retention of webhook deliveries (DynamoDB TTL)', () => {
  it('deliveries and attempts carry a TTL of 30 days after their last change by default, refreshed by every change', async () => {
    const { delivery, attempt } = await deliveredOnce();
    const item = await rawItem(keys.webhookDelivery(delivery.id));
    expect(item?.[TABLE.ttlAttribute]).toBe(epoch(delivery.updated_at) + 30 * DAY);
    // The latest attempt lives on the delivery item (and expires with it) until a later one replaces it.
    expect(item?.last_attempt).toEqual(attempt);
    expect(await rawItem(keys.webhookAttempt(delivery.id, 1))).toBeUndefined();
  });

  it('an attempt replaced by a later one gets an item of its own, expiring 30 days after it started', async () => {
    const { delivery, attempt } = await deliveredOnce(newId(), 'pending');
    const claimedAt = new Date().toISOString();
    const claimed = (await claimDelivery(delivery, 2, claimedAt))!;
    const second = { ...attempt, number: 2, started_at: claimedAt };
    const done = new Date().toISOString();
    expect(
      await completeAttempt(claimed, second, { status: 'succeeded', nextAttemptAt: null, deliveredAt: done }, done),
    ).toBe(true);
    const attemptItem = await rawItem(keys.webhookAttempt(delivery.id, 1));
    expect(attemptItem?.[TABLE.ttlAttribute]).toBe(epoch(attempt.started_at) + 30 * DAY);
    expect((await getDeliveryWithAttempts(delivery.id))?.attempts).toEqual([attempt, second]);
  });

  it('the period is configurable (WEBHOOK_RETENTION_DAYS)', async () => {
    process.env.WEBHOOK_RETENTION_DAYS = '2';
    const { delivery } = await deliveredOnce();
    expect((await rawItem(keys.webhookDelivery(delivery.id)))?.[TABLE.ttlAttribute]).toBe(
      epoch(delivery.updated_at) + 2 * DAY,
    );
    process.env.WEBHOOK_RETENTION_DAYS = '0';
    await expect(deliveredOnce()).rejects.toThrow(/WEBHOOK_RETENTION_DAYS/);
  });

  it('when TTL removes a delivery and its attempts, the totals still count it: they count every delivery ever made', async () => {
    const { workspaceId, delivery } = await deliveredOnce();
    await deliveredOnce(workspaceId);
    // Counted from the table stream (the shared local runtime's poller): one stream batch later.
    await expect
      .poll(() => getTotals(workspaceId), { timeout: 10_000 })
      .toEqual({ total: 2, succeeded: 2, failed: 0, pending: 0, delivering: 0 });
    // What DynamoDB's TTL process does once the time has passed: a plain delete of each item.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.webhookDelivery(delivery.id) }));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.webhookAttempt(delivery.id, 1) }));
    expect(await getDeliveryWithAttempts(delivery.id)).toBeUndefined();
    const page = await listDeliveries(workspaceId, {}, { limit: 50 });
    expect(page.items.map((d) => d.id)).not.toContain(delivery.id);
    expect(page.items).toHaveLength(1);
    // The deletes are stream records too (REMOVE): they change no count.
    await new Promise((done) => setTimeout(done, 1000));
    expect(await getTotals(workspaceId)).toEqual({ total: 2, succeeded: 2, failed: 0, pending: 0, delivering: 0 });
  });
});
