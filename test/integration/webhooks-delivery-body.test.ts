import type { SQSEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { sendDeliveryHandler } from '../../functions/webhook-pipeline/handlers.js';
import { newId } from '../../shared/domain/ids.js';
import { newWebhookEndpoint, type WebhookEvent } from '../../shared/domain/webhooks.js';
import { deliveryMessage, type DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { undiciSender } from '../../shared/ports/outbound/undici-sender.js';
import { db, tableName } from '../../shared/store/client.js';
import { entities, eventExpiresAt } from '../../shared/store/entities.js';
import { putItem } from '../../shared/store/items.js';
import { keys } from '../../shared/store/keys.js';
import { TABLE } from '../../shared/store/table.js';
import { createDelivery, getDelivery, restartDelivery } from '../../shared/store/webhook-deliveries.js';
import { putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { webhookBody } from '../../shared/webhooks/body.js';
import { newDelivery } from '../../shared/webhooks/fan-out.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const DAY = 86_400;
const settings = {
  retryDelays: [0, 0, 0, 0, 0, 0, 0, 0, 0],
  timeoutMs: 2000,
  urlPolicy: 'allow-local' as const,
  inFlight: { perEndpoint: 4, perWorkspace: 10 },
  health: { disableAfterMs: 5 * 86_400_000, minFailureSpreadMs: 12 * 3_600_000 },
};

/** An endpoint on a real receiver answering `respond`, an event with nested data, its delivery created as the fan-out does. */
async function setUp(respond: (n: number) => number, options: { storeEvent?: boolean } = {}) {
  const receiver = await startReceiver(respond);
  receivers.push(receiver);
  const workspaceId = newId();
  const endpoint = newWebhookEndpoint(new Date(), workspaceId, {
    name: 'body',
    url: receiver.url,
    event_types: ['profile.followed'],
    profile_ids: [newId()],
  });
  await putEndpoint(endpoint);
  // The shared local runtime fans out every event item it sees on the stream: this event's profile
  // is not one the endpoint selected, so only this test's sender delivers it.
  const event: WebhookEvent = {
    id: newId(),
    type: 'profile.followed',
    profile_id: newId(),
    workspace_id: workspaceId,
    created_at: new Date().toISOString(),
    data: { zeta: { b: 2, a: [{ y: 1, x: 'é' }] }, alpha: 'first', middle: null },
  };
  if (options.storeEvent !== false) await putItem(entities.event, event);
  const delivery = newDelivery(event, endpoint, new Date().toISOString());
  await createDelivery(delivery);
  return { receiver, event, delivery };
}

/** The real sender handler; messages it queues (further attempts) are handled in turn, up to `rounds`. */
async function send(first: DeliveryMessage, rounds = 1) {
  const queued: DeliveryMessage[] = [first];
  const queue = { enqueue: async (message: DeliveryMessage) => void queued.push(message) };
  const handler = sendDeliveryHandler(
    { queue, scheduler: { schedule: async () => undefined }, http: undiciSender },
    settings,
  );
  for (let i = 0; i < rounds && queued.length > 0; i++) {
    const message = queued.shift()!;
    const record = { messageId: newId(), body: JSON.stringify(message) } as SQSEvent['Records'][number];
    expect((await handler({ Records: [record] })).batchItemFailures).toEqual([]);
  }
}

describe('the delivery body lives once per event', () => {
  it('the delivery item carries no payload; the body is built from the event item, the same bytes on every attempt', async () => {
    const { receiver, event, delivery } = await setUp((n) => (n < 3 ? 500 : 200));
    const item = (
      await db().send(
        new GetCommand({ TableName: tableName(), Key: keys.webhookDelivery(delivery.id), ConsistentRead: true }),
      )
    ).Item!;
    expect(item).not.toHaveProperty('payload');
    await send(deliveryMessage(delivery, 1), 3);
    expect(receiver.received).toHaveLength(3);
    const bodies = receiver.received.map((r) => r.body);
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toBe(webhookBody(event));
    expect(JSON.parse(bodies[0]!)).toEqual({
      id: event.id,
      type: event.type,
      profile_id: event.profile_id,
      created_at: event.created_at,
      data: event.data,
    });
    // Nested keys in sorted order, whatever order DynamoDB returns the map in.
    expect(bodies[0]).toContain('"data":{"alpha":"first","middle":null,"zeta":{"a":[{"x":"é","y":1}],"b":2}}');
    expect((await getDelivery(delivery.id))?.status).toBe('succeeded');
  });

  it('a delivery whose event item is gone fails without an attempt', async () => {
    const { receiver, delivery } = await setUp(() => 200, { storeEvent: false });
    await send(deliveryMessage(delivery, 1));
    expect(receiver.received).toHaveLength(0);
    expect(await getDelivery(delivery.id)).toMatchObject({
      status: 'failed',
      last_error: 'event no longer stored: not sent',
    });
  });

  it('the event item outlives the retry schedule plus the retention, and a manual retry pushes that forward', async () => {
    const { event, delivery } = await setUp(() => 410);
    const expiry = async () =>
      (await db().send(new GetCommand({ TableName: tableName(), Key: keys.event(event.id), ConsistentRead: true })))
        .Item?.[TABLE.ttlAttribute] as number;
    const created = await expiry();
    expect(created).toBe(eventExpiresAt(event.created_at));
    expect(created).toBeGreaterThanOrEqual(Math.ceil(Date.parse(event.created_at) / 1000) + 33 * DAY);
    await send(deliveryMessage(delivery, 1));
    const failed = (await getDelivery(delivery.id))!;
    expect(failed.status).toBe('failed');
    const later = new Date(Date.now() + 20 * DAY * 1000).toISOString();
    expect(await restartDelivery(failed, later)).toBeDefined();
    expect(await expiry()).toBe(eventExpiresAt(later));
  });
});
