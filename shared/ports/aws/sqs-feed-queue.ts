import { SendMessageBatchCommand, SQSClient, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { config } from '../../config.js';
import { mapLimit } from '../../pipeline/concurrency.js';
import { retry, type RetryPolicy } from '../../pipeline/retry.js';
import { feedMessageBody, type FeedMessage, type FeedQueue } from '../feed-queue.js';

/** SQS takes at most 10 messages per SendMessageBatch. */
const PER_CALL = 10;
/** SendMessageBatch calls in flight at once. */
const CALLS_AT_ONCE = 4;
/** Entries SQS refused sent again: up to 4 calls per batch, after about 0.1, 0.2, 0.4 s (jittered). */
const REFUSED_RETRY: RetryPolicy = {
  tries: 4,
  baseDelayMs: 100,
  factor: 2,
  retryable: (error) => error instanceof Refused,
};

/** SQS refused some entries of a call (a throttled or failing queue); the rest went through. */
class Refused extends Error {}

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
    await mapLimit(batches, CALLS_AT_ONCE, (batch) => this.sendBatch(batch));
  }

  private async sendBatch(entries: SendMessageBatchRequestEntry[]): Promise<void> {
    let pending = entries;
    await retry(async () => {
      const result = await this.client.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: pending }));
      const failed = new Set((result.Failed ?? []).map((f) => f.Id));
      pending = pending.filter((entry) => failed.has(entry.Id));
      if (pending.length > 0)
        throw new Refused(
          `SQS refused ${pending.length} feed messages: ${result.Failed?.[0]?.Message ?? 'no reason given'}`,
        );
    }, REFUSED_RETRY);
  }
}

/** The deployed queue (FEED_QUEUE_URL); without it, sending fails with a clear message. */
export function sqsFeedQueueFromConfig(): FeedQueue {
  const queueUrl = config.feedQueueUrl;
  if (queueUrl) return new SqsFeedQueue(queueUrl);
  return { send: () => Promise.reject(new Error('FEED_QUEUE_URL is not configured')) };
}
