/**
 * The pipeline Lambdas' event shapes around the delivery engine, given their ports: the Lambda
 * entry points wire the AWS adapters, the local runtime (infra/local) its in-process ones, so both
 * run the same code on the same event shapes.
 */
import type { DynamoDBRecord, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../../shared/config.js';
import { WebhookEvent } from '../../shared/domain/webhooks.js';
import { logger } from '../../shared/logger.js';
import { entityTags } from '../../shared/store/keys.js';
import type { DeliveryPorts } from '../../shared/ports/delivery-ports.js';
import { batchResponse, type ShardStreamEvent, type StreamHandler } from '../../shared/ports/shard-stream-event.js';
import { readMessageBody } from '../../shared/ports/delivery-queue.js';
import { deliver, type DeliverySettings } from '../../shared/webhooks/deliver.js';
import { forEachLimit } from '../../shared/webhooks/bounded.js';
import { fanOut, type FanOutSettings } from '../../shared/webhooks/fan-out.js';
import { readImage } from '../../shared/webhooks/stream-image.js';
import { foldDeliveryTotals, isDeliveryWrite } from '../../shared/webhooks/totals-from-stream.js';

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** The sender's settings, read from the environment once per process. */
export function deliverySettingsFromConfig(): DeliverySettings {
  return {
    retryDelays: config.webhookRetryDelays,
    timeoutMs: config.webhookTimeoutMs,
    urlPolicy: config.webhookUrlPolicy,
    inFlight: { perEndpoint: config.webhookEndpointMaxInFlight, perWorkspace: config.webhookWorkspaceMaxInFlight },
    health: {
      disableAfterMs: config.webhookHealthDisableAfterMs,
      minFailureSpreadMs: config.webhookHealthMinFailureSpreadMs,
    },
  };
}

/** Workspaces of one stream batch fanned out at once. */
const WORKSPACES_AT_ONCE = 4;
/** In-process tries of one event before its workspace's part of the batch is reported failed. */
const FAN_OUT_TRIES = 3;

function fanOutSettingsFromConfig(): FanOutSettings {
  return { concurrency: config.webhookFanOutConcurrency };
}

async function fanOutWithRetries(
  event: WebhookEvent,
  ports: Pick<DeliveryPorts, 'queue'>,
  settings: FanOutSettings,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await fanOut(event, ports, settings);
      return;
    } catch (error) {
      if (attempt >= FAN_OUT_TRIES) throw error;
      await new Promise((r) => setTimeout(r, 100 * 4 ** attempt * (0.5 + Math.random())));
    }
  }
}

/**
 * DynamoDB stream → fan-out and totals. INSERTs of outbox items (entity tag `event`) are events to
 * deliver; writes of deliveries are folded into their workspaces' totals, exactly once per shard
 * (see shared/webhooks/totals-from-stream.ts).
 * The batch is split by workspace: each workspace's events in order, workspaces side by side, so
 * one workspace's slow or failing fan-out neither delays nor fails another's. An event that still
 * fails after in-process tries stops its workspace's part and is reported (ReportBatchItemFailures):
 * the stream resumes from the earliest such record, and events after it that were already fanned
 * out are replayed idempotently (no second delivery; their queue messages claim nothing). An
 * outbox item that is not an event is logged and reported the same way: after the event source's
 * retries it lands in the fan-out failure queue rather than being dropped unseen.
 */
export function fanOutHandler(
  ports: Pick<DeliveryPorts, 'queue'>,
  settings: FanOutSettings = fanOutSettingsFromConfig(),
): StreamHandler {
  return async (event) => {
    const byWorkspace = new Map<string, { record: DynamoDBRecord; event: WebhookEvent }[]>();
    const failed: string[] = [];
    for (const record of event.Records) {
      const image = record.dynamodb?.NewImage;
      if (record.eventName !== 'INSERT' || image?.entity?.S !== entityTags.event) continue;
      const read = readImage(WebhookEvent, image);
      if (!read.ok) {
        const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
        logger.error('malformed outbox event on the stream', { sequence_number: sequenceNumber, reason: read.reason });
        failed.push(sequenceNumber);
        continue;
      }
      const list = byWorkspace.get(read.record.workspace_id) ?? [];
      list.push({ record, event: read.record });
      byWorkspace.set(read.record.workspace_id, list);
    }
    const fanOutAll = forEachLimit([...byWorkspace.values()], WORKSPACES_AT_ONCE, async (events) => {
      for (const { record, event: webhookEvent } of events) {
        try {
          await fanOutWithRetries(webhookEvent, ports, settings);
        } catch (error) {
          logger.error('webhook fan-out failed', {
            event_id: webhookEvent.id,
            workspace_id: webhookEvent.workspace_id,
            error: error as Error,
          });
          failed.push(record.dynamodb?.SequenceNumber ?? '');
          return;
        }
      }
    });
    const [, foldFailed] = await Promise.all([fanOutAll, foldTotalsOf(event)]);
    failed.push(...foldFailed);
    return batchResponse(event, failed);
  };
}

/** The delivery records' totals; the sequence numbers of records whose fold failed. */
async function foldTotalsOf(event: ShardStreamEvent): Promise<string[]> {
  if (!event.Records.some(isDeliveryWrite)) return [];
  // Without the shard, a watermark cannot tell a repeated record from a new one of another shard.
  if (!event.shardId)
    throw new Error('delivery records on a stream event without shardId: the event source needs its tumbling window');
  return foldDeliveryTotals(event.Records, event.shardId);
}

/**
 * SQS → sender. Each record's body is a DeliveryMessage; failures are reported per item. A body
 * that is not a message is logged and reported too: after the queue's receives it goes to the
 * dead-letter queue.
 */
export function sendDeliveryHandler(ports: DeliveryPorts, settings: DeliverySettings): SqsHandler {
  return async (event) => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const read = readMessageBody(record.body);
        if (!read.ok) {
          logger.error('malformed webhook delivery message', { messageId: record.messageId, reason: read.reason });
          failures.push({ itemIdentifier: record.messageId });
          return;
        }
        try {
          await deliver(read.message, ports, settings);
        } catch (error) {
          logger.error('webhook delivery failed to process', { messageId: record.messageId, error: error as Error });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    ports.metrics?.flush();
    return { batchItemFailures: failures };
  };
}
