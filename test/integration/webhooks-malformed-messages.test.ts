/**
 * What the pipeline reads off the wire is checked against its schema: a queue message the sender
 * cannot read, or a stream image the fan-out cannot read, is logged and reported as a batch item
 * failure (so it ends in the dead-letter or failure queue), and the rest of the batch goes on.
 */
import type { DynamoDBRecord, SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fanOutHandler, sendDeliveryHandler } from '../../functions/webhook-pipeline/handlers.js';
import { newId } from '../../shared/domain/ids.js';
import { newWebhookEndpoint, type WebhookEvent } from '../../shared/domain/webhooks.js';
import { deliveryMessage, messageBody, type DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { undiciSender } from '../../shared/ports/outbound/undici-sender.js';
import { entities } from '../../shared/store/entities.js';
import { putItem } from '../../shared/store/items.js';
import { createDelivery, getDelivery } from '../../shared/store/webhook-deliveries.js';
import { createEndpoint, putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { newDelivery } from '../../shared/webhooks/fan-out.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The JSON log lines written while `run` runs (the logger writes errors to stderr, the rest to stdout). */
async function logsOf<T>(run: () => Promise<T>): Promise<{ result: T; logs: Record<string, unknown>[] }> {
  const lines: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      return true;
    });
  }
  try {
    return { result: await run(), logs: lines.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line)] : [])) };
  } finally {
    vi.restoreAllMocks();
  }
}

const sqsRecord = (body: string) => ({ messageId: newId(), body }) as SQSEvent['Records'][number];

describe('the sender reads each queue message against its schema', () => {
  it('reports a body that is not JSON or not a message, logs it, and delivers the rest of the batch', async () => {
    const receiver = await startReceiver(() => 200);
    receivers.push(receiver);
    const endpoint = newWebhookEndpoint(new Date(), newId(), {
      name: 'malformed',
      url: receiver.url,
      event_types: ['profile.followed'],
      profile_ids: [newId()],
    });
    await putEndpoint(endpoint);
    // Not a profile the endpoint selected: the shared local runtime's fan-out leaves this event alone.
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
    await createDelivery(delivery);
    const message = deliveryMessage(delivery, 1);
    const malformed = [
      sqsRecord('{"delivery_id":'),
      sqsRecord(JSON.stringify({ delivery_id: delivery.id, attempt: 1 })),
      sqsRecord(JSON.stringify({ ...message, attempt: '1' })),
      sqsRecord(JSON.stringify({ ...message, attempt: 0 })),
    ];
    const valid = sqsRecord(messageBody(message));
    const queued: DeliveryMessage[] = [];
    const handler = sendDeliveryHandler(
      {
        queue: { enqueue: async (m: DeliveryMessage) => void queued.push(m) },
        scheduler: { schedule: async () => undefined },
        http: undiciSender,
      },
      {
        retryDelays: [1, 1, 1, 1, 1, 1, 1, 1, 1],
        timeoutMs: 2000,
        urlPolicy: 'allow-local',
        inFlight: { perEndpoint: 4, perWorkspace: 10 },
        health: { disableAfterMs: 5 * 86_400_000, minFailureSpreadMs: 12 * 3_600_000 },
      },
    );

    const { result, logs } = await logsOf(() => handler({ Records: [...malformed, valid] }));

    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      malformed.map((r) => r.messageId).sort(),
    );
    const reported = logs.filter((log) => log.message === 'malformed webhook delivery message');
    expect(reported.map((log) => log.messageId).sort()).toEqual(malformed.map((r) => r.messageId).sort());
    expect(reported.every((log) => typeof log.reason === 'string' && log.reason.length > 0)).toBe(true);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(delivery.id);
    expect((await getDelivery(delivery.id))?.status).toBe('succeeded');
  });
});

/** A stream record of an outbox INSERT with this image. */
function outboxInsert(sequence: string, image: NonNullable<DynamoDBRecord['dynamodb']>['NewImage']): DynamoDBRecord {
  return { eventName: 'INSERT', dynamodb: { SequenceNumber: sequence, NewImage: image } };
}

const eventImage = (workspaceId: string, profileId: string) => ({
  pk: { S: 'EVENT#x' },
  entity: { S: 'event' },
  id: { S: newId() },
  type: { S: 'profile.followed' },
  profile_id: { S: profileId },
  workspace_id: { S: workspaceId },
  created_at: { S: new Date().toISOString() },
  data: { M: { follower: { M: { id: { S: newId() } } } } },
});

describe('the fan-out reads each outbox image against the event schema', () => {
  it('reports an image that is not an event, logs it, and fans out the events around it', async () => {
    const workspaceId = newId();
    const profileId = newId();
    const endpoint = newWebhookEndpoint(new Date(), workspaceId, {
      name: 'fan-out',
      url: 'https://example.com/hooks',
      event_types: ['profile.followed'],
      profile_ids: [profileId],
    });
    expect(await createEndpoint(endpoint, 20)).toBe('created');
    const { workspace_id: _missing, ...withoutWorkspace } = eventImage(workspaceId, profileId);
    const batch = [
      outboxInsert('100', eventImage(workspaceId, profileId)),
      outboxInsert('200', withoutWorkspace),
      outboxInsert('300', { ...eventImage(workspaceId, profileId), type: { S: 'no.such_type' } }),
      outboxInsert('400', eventImage(workspaceId, profileId)),
    ];
    const enqueued: DeliveryMessage[] = [];
    const handler = fanOutHandler({ queue: { enqueue: async (m: DeliveryMessage) => void enqueued.push(m) } });

    const { result, logs } = await logsOf(() => handler({ Records: batch }));

    // The stream resumes from the earliest reported record; the events after it are replayed idempotently.
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: '200' }]);
    const reported = logs.filter((log) => log.message === 'malformed outbox event on the stream');
    expect(reported.map((log) => log.sequence_number)).toEqual(['200', '300']);
    expect(String(reported[0]!.reason)).toContain('workspace_id');
    expect(String(reported[1]!.reason)).toContain('type');
    const fannedOut = [batch[0]!, batch[3]!].map((r) => r.dynamodb!.NewImage!.id!.S);
    expect(enqueued.map((m) => m.webhook_event_id)).toEqual(fannedOut);
    expect(enqueued.every((m) => m.webhook_endpoint_id === endpoint.id && m.attempt === 1)).toBe(true);
  });
});
