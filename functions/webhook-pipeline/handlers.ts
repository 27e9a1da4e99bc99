/**
 * The pipeline Lambdas' event shapes around the delivery engine, given their ports: the Lambda
 * entry points wire the AWS adapters, the local runtime (infra/local) its in-process ones, so both
 * run the same code on the same event shapes.
 */
import type { DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../../shared/config.js';
import type { WebhookEvent } from '../../shared/domain/webhooks.js';
import { logger } from '../../shared/logger.js';
import type { DeliveryPorts } from '../../shared/ports/delivery-ports.js';
import type { DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { deliver, type DeliverySettings } from '../../shared/webhooks/deliver.js';
import { fanOut } from '../../shared/webhooks/fan-out.js';
import { fromImage, type StreamAttribute } from '../../shared/webhooks/stream-image.js';

export type StreamHandler = (event: DynamoDBStreamEvent) => Promise<void>;
export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** The sender's settings, read from the environment once per process. */
export function deliverySettingsFromConfig(): DeliverySettings {
  return { retryDelays: config.webhookRetryDelays, timeoutMs: config.webhookTimeoutMs, urlPolicy: config.webhookUrlPolicy };
}

/** DynamoDB stream → fan-out. Only INSERTs of outbox items (entity 'event') are events to deliver. */
export function fanOutHandler(ports: Pick<DeliveryPorts, 'queue'>): StreamHandler {
  return async (event) => {
    for (const record of event.Records) {
      const image = record.dynamodb?.NewImage;
      if (record.eventName !== 'INSERT' || image?.entity?.S !== 'event') continue;
      // Sequential per batch keeps the order of events; a failure retries the batch (fan-out is idempotent).
      await fanOut(fromImage(image as Record<string, StreamAttribute>) as unknown as WebhookEvent, ports);
    }
  };
}

/** SQS → sender. Each record is `{ delivery_id, attempt }`; failures are reported per item. */
export function sendDeliveryHandler(ports: DeliveryPorts, settings: DeliverySettings): SqsHandler {
  return async (event) => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          await deliver(JSON.parse(record.body) as DeliveryMessage, ports, settings);
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
