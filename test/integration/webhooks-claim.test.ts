import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import { newWebhookEndpoint } from '../../shared/domain/webhooks.js';
import type { DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { claimDelivery, createDelivery, getDelivery } from '../../shared/store/webhook-deliveries.js';
import { putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { newDelivery } from '../../shared/webhooks/fan-out.js';
import { sweepDeliveries } from '../../shared/webhooks/sweep.js';

const HOUR = 3_600_000;
const rawItem = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookDelivery(id), ConsistentRead: true })))
    .Item!;

async function pendingDelivery(createdAt: Date) {
  const endpoint = newWebhookEndpoint(new Date(), newId(), {
    name: 'claims',
    url: 'https://example.com/hook',
    event_types: ['profile.followed'],
    profile_ids: [newId()],
  });
  await putEndpoint(endpoint);
  const event = {
    id: newId(),
    type: 'profile.followed' as const,
    profile_id: newId(),
    workspace_id: endpoint.workspace_id,
    created_at: createdAt.toISOString(),
    data: {},
  };
  const delivery = newDelivery(event, endpoint, createdAt.toISOString());
  expect(await createDelivery(delivery)).toBe('created');
  return delivery;
}

describe('claims', () => {
  it('a claim moves no index key and leaves updated_at and the expiry alone', async () => {
    const delivery = await pendingDelivery(new Date());
    const before = await rawItem(delivery.id);
    const claimed = await claimDelivery(delivery, 1, new Date(Date.now() + 5).toISOString());
    expect(claimed).toMatchObject({ status: 'delivering', claimed_attempt: 1, updated_at: delivery.updated_at });
    const after = await rawItem(delivery.id);
    expect(after).toMatchObject({
      status: 'delivering',
      prev_status: 'pending',
      claimed_attempt: 1,
      claimed_at: claimed!.claimed_at,
    });
    for (const attribute of ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'updated_at', 'expires_at_epoch'])
      expect(after[attribute]).toBe(before[attribute]);
    expect(await claimDelivery(delivery, 1, new Date().toISOString())).toBeUndefined();
  });

  it('the sweeper releases and re-enqueues a stale claim (by claimed_at) and leaves a fresh one alone', async () => {
    const now = new Date();
    const stale = await pendingDelivery(new Date(now.getTime() - 2 * HOUR));
    const fresh = await pendingDelivery(new Date(now.getTime() - 2 * HOUR));
    await claimDelivery(stale, 1, new Date(now.getTime() - HOUR).toISOString());
    await claimDelivery(fresh, 1, new Date(now.getTime() - 60_000).toISOString());
    const queued: DeliveryMessage[] = [];
    // The table is shared with other tests: a grace and stale time long enough to touch only these two.
    await sweepDeliveries(
      now,
      { queue: { enqueue: async (m) => void queued.push(m) } },
      { graceMs: 3 * HOUR, staleClaimMs: 30 * 60_000 },
    );
    expect(queued.filter((m) => m.delivery_id === stale.id)).toEqual([
      {
        delivery_id: stale.id,
        attempt: 1,
        webhook_event_id: stale.webhook_event_id,
        webhook_endpoint_id: stale.webhook_endpoint_id,
      },
    ]);
    expect(queued.filter((m) => m.delivery_id === fresh.id)).toEqual([]);
    expect(await getDelivery(stale.id)).toMatchObject({
      status: 'pending',
      claimed_at: null,
      prev_status: 'delivering',
    });
    expect(await getDelivery(fresh.id)).toMatchObject({ status: 'delivering' });
  });
});
