import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../config.js';
import { exportMessageBody, type ExportMessage, type ExportQueue } from '../export-queue.js';

/** The AWS adapter: one SendMessage per export (the SDK retries a throttled or failed call itself). */
export class SqsExportQueue implements ExportQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly client: SQSClient = new SQSClient({}),
  ) {}

  async enqueue(message: ExportMessage): Promise<void> {
    await this.client.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: exportMessageBody(message) }),
    );
  }
}

/** The deployed queue (EXPORT_QUEUE_URL); without it, enqueueing fails with a clear message. */
export function sqsExportQueueFromConfig(): ExportQueue {
  const queueUrl = config.exportQueueUrl;
  if (queueUrl) return new SqsExportQueue(queueUrl);
  return { enqueue: () => Promise.reject(new Error('EXPORT_QUEUE_URL is not configured')) };
}
