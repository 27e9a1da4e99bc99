/**
 * The pipeline Lambdas' event shapes around the delivery engine, given their ports: the Lambda
 * entry points wire the AWS adapters, the local runtime (infra/local) its in-process ones, so both
 * run the same code on the same event shapes.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../../shared/config.js';
import { WebhookEvent } from '../../shared/domain/webhooks.js';
import { entityTags } from '../../shared/store/keys.js';
import type { DeliveryPorts } from '../../shared/ports/delivery-ports.js';
import { streamBatchResponse } from '../../shared/pipeline/batch-failures.js';
import { decodeImage } from '../../shared/pipeline/decode.js';
import { queueHandler } from '../../shared/pipeline/sqs-consumer.js';
import { consumeStream, STREAM_STEP_RETRY, type StreamConsumer } from '../../shared/pipeline/stream-consumer.js';
import { foldShardOf, type ShardStreamEvent, type StreamHandler } from '../../shared/ports/shard-stream-event.js';
import { DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { deliver, type DeliverySettings } from '../../shared/webhooks/deliver.js';
import { fanOut, type FanOutSettings } from '../../shared/webhooks/fan-out.js';
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

function fanOutSettingsFromConfig(): FanOutSettings {
  return { concurrency: config.webhookFanOutConcurrency };
}

/**
 * The outbox events of a stream batch (INSERTs of items tagged `event`), fanned out in a lane per
 * workspace: each workspace's events in order, workspaces side by side, so one workspace's slow or
 * failing fan-out neither delays nor fails another's. An event that still fails after in-process
 * tries ends its workspace's lane.
 */
function outboxEvents(ports: Pick<DeliveryPorts, 'queue'>, settings: FanOutSettings): StreamConsumer<WebhookEvent> {
  return {
    records: 'outbox event',
    failure: 'webhook fan-out failed',
    select: (record) =>
      record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entity?.S === entityTags.event
        ? decodeImage(WebhookEvent, record.dynamodb.NewImage)
        : undefined,
    laneOf: (event) => event.workspace_id,
    concurrency: WORKSPACES_AT_ONCE,
    retry: STREAM_STEP_RETRY,
    each: (event) => fanOut(event, ports, settings),
    describe: (event) => ({ event_id: event.id, workspace_id: event.workspace_id }),
  };
}

/**
 * DynamoDB stream → fan-out and totals. Outbox events are delivered (above); writes of deliveries
 * are folded into their workspaces' totals, exactly once per shard (see
 * shared/webhooks/totals-from-stream.ts). What still fails is reported (ReportBatchItemFailures):
 * the stream resumes from the earliest such record, and events after it that were already fanned
 * out are replayed idempotently (no second delivery; their queue messages claim nothing). An
 * outbox item that is not an event is logged and reported the same way: after the event source's
 * retries it lands in the fan-out failure queue rather than being dropped unseen.
 */
export function fanOutHandler(
  ports: Pick<DeliveryPorts, 'queue'>,
  settings: FanOutSettings = fanOutSettingsFromConfig(),
): StreamHandler {
  const events = outboxEvents(ports, settings);
  return async (event) => {
    const [fanOutFailed, foldFailed] = await Promise.all([consumeStream(event.Records, events), foldTotalsOf(event)]);
    return streamBatchResponse(event, [...fanOutFailed, ...foldFailed]);
  };
}

/** The delivery records' totals; the sequence numbers of records whose fold failed. */
async function foldTotalsOf(event: ShardStreamEvent): Promise<string[]> {
  if (!event.Records.some(isDeliveryWrite)) return [];
  return foldDeliveryTotals(event.Records, foldShardOf(event.shardId, 'delivery records'));
}

/**
 * SQS → sender. Each record's body is a DeliveryMessage; failures are reported per item. A body
 * that is not a message is logged and reported too: after the queue's receives it goes to the
 * dead-letter queue.
 */
export function sendDeliveryHandler(ports: DeliveryPorts, settings: DeliverySettings): SqsHandler {
  const send = queueHandler({
    messages: 'webhook delivery message',
    failure: 'webhook delivery failed to process',
    schema: DeliveryMessage,
    handle: (message) => deliver(message, ports, settings),
  });
  return async (event) => {
    const response = await send(event);
    ports.metrics?.flush();
    return response;
  };
}
