/** DynamoDB stream → fan-out. Only INSERTs of outbox items (entity 'event') are events to deliver. */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { WebhookEvent } from '../../shared/domain/webhooks.js';
import { fanOut } from '../../shared/webhooks/fan-out.js';
import { fromImage, type StreamAttribute } from '../../shared/webhooks/stream-image.js';

export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || image?.entity?.S !== 'event') continue;
    // Sequential per batch keeps the order of events; a failure retries the batch (fan-out is idempotent).
    await fanOut(fromImage(image as Record<string, StreamAttribute>) as unknown as WebhookEvent);
  }
};
