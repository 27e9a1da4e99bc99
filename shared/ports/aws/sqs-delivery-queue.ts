import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../config.js';
import { MAX_QUEUE_DELAY_SECONDS, messageBody, type DeliveryMessage, type DeliveryQueue } from '../delivery-queue.js';

/** The AWS adapter: SQS SendMessage, with DelaySeconds (0..900, whole seconds, rounded up). */
export class SqsDeliveryQueue implements DeliveryQueue {
  /** A message is received again after its visibility timeout until it is deleted (then the dead-letter queue). */
  readonly durable = true;

  constructor(
    private readonly queueUrl: string,
    private readonly client: SQSClient = new SQSClient({}),
  ) {}

  async enqueue(message: DeliveryMessage, delaySeconds = 0): Promise<void> {
    const delay = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: messageBody(message),
        ...(delay > 0 ? { DelaySeconds: delay } : {}),
      }),
    );
  }
}

/** The deployed queue (DELIVERIES_QUEUE_URL); without it, enqueueing fails with a clear message. */
export function sqsDeliveryQueueFromConfig(): DeliveryQueue {
  const queueUrl = config.deliveriesQueueUrl;
  if (queueUrl) return new SqsDeliveryQueue(queueUrl);
  return {
    enqueue: () => Promise.reject(new Error('DELIVERIES_QUEUE_URL is not configured')),
  };
}
