import { SendMessageBatchCommand, SQSClient, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../../config.js';
import { feedMessageBody, type FeedMessage, type FeedQueue } from '../feed-queue.js';

/** SQS takes at most 10 messages per SendMessageBatch. */
const PER_CALL = 10;
/** SendMessageBatch calls in flight at once. */
const CALLS_AT_ONCE = 4;
/** Calls per batch before entries SQS still refuses fail the send. */
const ATTEMPTS = 4;

/** The AWS adapter: SendMessageBatch in tens, entries SQS refused sent again. */
export class SqsFeedQueue implements FeedQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly client: SQSClient = new SQSClient({}),
  ) {}

  async send(messages: readonly FeedMessage[]): Promise<void> {
    const batches: SendMessageBatchRequestEntry[][] = [];
    for (let i = 0; i < messages.length; i += PER_CALL)
      batches.push(messages.slice(i, i + PER_CALL).map((m, j) => ({ Id: String(j), MessageBody: feedMessageBody(m) })));
    let next = 0;
    const lane = async () => {
      while (next < batches.length) await this.sendBatch(batches[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(CALLS_AT_ONCE, batches.length) }, lane));
  }

  private async sendBatch(entries: SendMessageBatchRequestEntry[]): Promise<void> {
    let pending = entries;
    for (let attempt = 1; ; attempt++) {
      const result = await this.client.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: pending }));
      const failed = new Set((result.Failed ?? []).map((f) => f.Id));
      pending = pending.filter((entry) => failed.has(entry.Id));
      if (pending.length === 0) return;
      if (attempt >= ATTEMPTS)
        throw new Error(
          `SQS refused ${pending.length} feed messages: ${result.Failed?.[0]?.Message ?? 'no reason given'}`,
        );
      await sleep(50 * 2 ** attempt * (0.5 + Math.random()));
    }
  }
}

/** The deployed queue (FEED_QUEUE_URL); without it, sending fails with a clear message. */
export function sqsFeedQueueFromConfig(): FeedQueue {
  const queueUrl = config.feedQueueUrl;
  if (queueUrl) return new SqsFeedQueue(queueUrl);
  return { send: () => Promise.reject(new Error('FEED_QUEUE_URL is not configured')) };
}
