import type { SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { sendDeliveryHandler } from '../../functions/webhook-pipeline/handlers.js';
import { newId } from '../../shared/domain/ids.js';
import { newWebhookEndpoint } from '../../shared/domain/webhooks.js';
import { powertoolsDeliveryMetrics } from '../../shared/ports/aws/powertools-delivery-metrics.js';
import { deliveryMessage, messageBody, type DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { undiciSender } from '../../shared/ports/outbound/undici-sender.js';
import { entities } from '../../shared/store/entities.js';
import { putItem } from '../../shared/store/items.js';
import { createDelivery } from '../../shared/store/webhook-deliveries.js';
import { putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { newDelivery } from '../../shared/webhooks/fan-out.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The real sender handler with the Powertools adapter, a real receiver answering `status`, and the EMF lines it printed. */
async function sendOnce(status: number) {
  const receiver = await startReceiver(() => status);
  receivers.push(receiver);
  const workspaceId = newId();
  const endpoint = newWebhookEndpoint(new Date(), workspaceId, {
    name: 'metrics',
    url: receiver.url,
    event_types: ['profile.followed'],
    profile_ids: [newId()],
  });
  await putEndpoint(endpoint);
  // Not a profile the endpoint selected: the shared local runtime's fan-out leaves this event alone.
  const event = {
    id: newId(),
    type: 'profile.followed' as const,
    profile_id: newId(),
    workspace_id: workspaceId,
    created_at: new Date().toISOString(),
    data: {},
  };
  const delivery = newDelivery(event, endpoint, new Date().toISOString());
  await putItem(entities.event, event);
  await createDelivery(delivery);

  const queued: DeliveryMessage[] = [];
  const queue = { enqueue: async (message: DeliveryMessage) => void queued.push(message) };
  const scheduler = { schedule: async () => undefined };
  const handler = sendDeliveryHandler(
    { queue, scheduler, http: undiciSender, metrics: powertoolsDeliveryMetrics() },
    {
      retryDelays: [1, 1, 1, 1, 1, 1, 1, 1, 1],
      timeoutMs: 2000,
      urlPolicy: 'allow-local',
      inFlight: { perEndpoint: 4, perWorkspace: 10 },
      health: { disableAfterMs: 5 * 86_400_000, minFailureSpreadMs: 12 * 3_600_000 },
    },
  );
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = chunk.toString();
    if (text.includes('"_aws"')) lines.push(...text.split('\n').filter((line) => line.includes('"_aws"')));
    else return write(chunk, ...(rest as [never]));
    return true;
  });
  const message: SQSEvent['Records'][number] = {
    messageId: newId(),
    body: messageBody(deliveryMessage(delivery, 1)),
  } as SQSEvent['Records'][number];
  const result = await handler({ Records: [message] });
  vi.restoreAllMocks();
  expect(result.batchItemFailures).toEqual([]);
  return { emf: lines.map((line) => JSON.parse(line) as Record<string, any>), queued, receiver };
}

const metricNames = (emf: Record<string, any>) =>
  (emf._aws.CloudWatchMetrics[0].Metrics as { Name: string; Unit: string }[]).map((m) => `${m.Name}:${m.Unit}`).sort();

describe('delivery metrics (CloudWatch embedded metric format, Powertools)', () => {
  it('a successful attempt: one EMF record with attempts, the success and the latency, in the SocialNetwork namespace', async () => {
    const { emf, receiver } = await sendOnce(200);
    expect(receiver.received).toHaveLength(1);
    expect(emf).toHaveLength(1);
    const record = emf[0]!;
    expect(record._aws.CloudWatchMetrics[0].Namespace).toBe('SocialNetwork');
    expect(record._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(record.service).toBe('webhook-sender');
    expect(metricNames(record)).toEqual([
      'DeliveriesSucceeded:Count',
      'DeliveryAttemptLatency:Milliseconds',
      'DeliveryAttempts:Count',
    ]);
    expect(record.DeliveryAttempts).toBe(1);
    expect(record.DeliveriesSucceeded).toBe(1);
    expect(record.DeliveryAttemptLatency).toBeGreaterThanOrEqual(0);
    expect(record.DeliveryAttemptLatency).toBeLessThan(2000);
  });

  it('a failed attempt with retries left counts a scheduled retry, not a failure', async () => {
    const { emf, queued } = await sendOnce(503);
    expect(queued).toEqual([expect.objectContaining({ attempt: 2 })]);
    expect(metricNames(emf[0]!)).toEqual([
      'DeliveryAttemptLatency:Milliseconds',
      'DeliveryAttempts:Count',
      'DeliveryRetriesScheduled:Count',
    ]);
    expect(emf[0]!.DeliveryRetriesScheduled).toBe(1);
  });

  it('410 ends the delivery: DeliveriesFailed', async () => {
    const { emf } = await sendOnce(410);
    expect(emf[0]!.DeliveriesFailed).toBe(1);
    expect(emf[0]!.DeliveriesSucceeded).toBeUndefined();
  });
});
