import type { SQSEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { sendDeliveryHandler } from '../../functions/webhook-pipeline/handlers.js';
import { newId } from '../../shared/domain/ids.js';
import { newWebhookEndpoint, type WebhookEvent } from '../../shared/domain/webhooks.js';
import { deliveryMessage, type DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { undiciSender } from '../../shared/ports/outbound/undici-sender.js';
import { db, tableName } from '../../shared/store/client.js';
import { entities } from '../../shared/store/entities.js';
import { putItem } from '../../shared/store/items.js';
import { keys } from '../../shared/store/keys.js';
import { claimDelivery, createDelivery, getDelivery } from '../../shared/store/webhook-deliveries.js';
import { putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { fanOut, newDelivery } from '../../shared/webhooks/fan-out.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const rawItem = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookDelivery(id), ConsistentRead: true })))
    .Item!;
const settings = {
  retryDelays: [1, 1, 1, 1, 1, 1, 1, 1, 1],
  timeoutMs: 2000,
  urlPolicy: 'allow-local' as const,
  inFlight: { perEndpoint: 4, perWorkspace: 10 },
  health: { disableAfterMs: 5 * 86_400_000, minFailureSpreadMs: 12 * 3_600_000 },
};

async function endpointOn(url: string) {
  const endpoint = newWebhookEndpoint(new Date(), newId(), {
    name: 'durable',
    url,
    event_types: ['profile.followed'],
    profile_ids: [newId()],
  });
  await putEndpoint(endpoint);
  return endpoint;
}

describe('a first attempt on a durable queue (SQS)', () => {
  it("is not entered in the sweeper's due index; on the in-memory queue it is", async () => {
    const endpoint = await endpointOn('https://example.com/hook');
    // Fanned out directly (no event item on the stream): only this test creates these deliveries.
    const event: WebhookEvent = {
      id: newId(),
      type: 'profile.followed',
      profile_id: endpoint.profile_ids[0]!,
      workspace_id: endpoint.workspace_id,
      created_at: new Date().toISOString(),
      data: {},
    };
    const queued: DeliveryMessage[] = [];
    const [durable] = await fanOut(
      event,
      { queue: { durable: true, enqueue: async (m) => void queued.push(m) } },
      { concurrency: 2 },
    );
    expect(await rawItem(durable!)).not.toHaveProperty('gsi2pk');
    const other: WebhookEvent = { ...event, id: newId() };
    const [inMemory] = await fanOut(
      other,
      { queue: { durable: false, enqueue: async (m) => void queued.push(m) } },
      { concurrency: 2 },
    );
    expect(await rawItem(inMemory!)).toHaveProperty('gsi2pk', keys.webhookDueShard(inMemory!));
    expect(queued.map((m) => m.delivery_id)).toEqual([durable, inMemory]);
  });

  it('a message handed over again after its sender died mid-attempt makes the attempt; one for a live claim does nothing', async () => {
    const receiver = await startReceiver(() => 200);
    receivers.push(receiver);
    const endpoint = await endpointOn(receiver.url);
    const handler = sendDeliveryHandler(
      {
        queue: { durable: true, enqueue: async () => undefined },
        scheduler: { schedule: async () => undefined },
        http: undiciSender,
      },
      settings,
    );
    const send = (message: DeliveryMessage) =>
      handler({ Records: [{ messageId: newId(), body: JSON.stringify(message) } as SQSEvent['Records'][number]] });
    const claimedAt = async (ago: number) => {
      // Not a profile the endpoint selected: the shared local runtime's fan-out leaves the event alone.
      const event: WebhookEvent = {
        id: newId(),
        type: 'profile.followed',
        profile_id: newId(),
        workspace_id: endpoint.workspace_id,
        created_at: new Date().toISOString(),
        data: {},
      };
      await putItem(entities.event, event);
      const delivery = newDelivery(event, endpoint, new Date().toISOString());
      await createDelivery(delivery, { dueEntry: false });
      await claimDelivery(delivery, 1, new Date(Date.now() - ago).toISOString());
      return delivery;
    };
    const died = await claimedAt(60_000);
    const live = await claimedAt(0);
    await send(deliveryMessage(live, 1));
    expect(receiver.received).toHaveLength(0);
    expect((await getDelivery(live.id))?.status).toBe('delivering');
    await send(deliveryMessage(died, 1));
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([died.id]);
    expect(await getDelivery(died.id)).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });
});
