import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryMessage, DeliveryQueue } from './delivery-queue.js';
import { MAX_QUEUE_DELAY_SECONDS } from './delivery-queue.js';

/** The AWS adapter: SQS SendMessage, with DelaySeconds (0..900, whole seconds, rounded up). */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly client: SQSClient = new SQSClient({}),
  ) {}

  async send(message: DeliveryMessage, delaySeconds = 0): Promise<void> {
    const delay = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify({ delivery_id: message.delivery_id, attempt: message.attempt }),
        ...(delay > 0 ? { DelaySeconds: delay } : {}),
      }),
    );
  }
}
