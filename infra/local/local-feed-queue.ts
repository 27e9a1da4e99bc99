import type { SQSRecord } from 'aws-lambda';
import { mapLimit } from '../../shared/pipeline/concurrency.js';
import { retry } from '../../shared/pipeline/retry.js';
import { feedMessageBody, type FeedMessage, type FeedQueue } from '../../shared/ports/feed-queue.js';
import { invokeWithBatch, sqsRecord, type SqsHandler } from './local-sqs.js';

export interface LocalFeedQueueOptions {
  /** Records per handler invocation (the event source's batchSize). */
  batchSize: number;
  /** Handler invocations in flight at once (the event source's maxConcurrency). */
  maxConcurrency: number;
  /** Deliveries of a message before `send` gives up on it (the queue's maxReceiveCount). */
  attempts?: number;
  /** Pause before failed messages are handed over again (the visibility timeout), ms. */
  retryAfterMs?: number;
}

/** Messages the writer failed on; handed over again until the queue's receive count runs out. */
class Undelivered extends Error {}

/**
 * The local stand-in for the feed queue and its event source: in-process, and `send` resolves
 * only once the writer has handled every message it sent (a failed one is handed over again, a
 * few times). The stream poller moves its checkpoint after its handler returns, so a local server
 * that stops mid-fan-out replays the stream record on its next start instead of losing messages
 * held in memory (the fan-out counts a post as handed over once `send` resolved).
 */
export class LocalFeedQueue implements FeedQueue {
  private readonly attempts: number;
  private readonly retryAfterMs: number;

  constructor(
    private readonly handler: SqsHandler,
    private readonly options: LocalFeedQueueOptions,
  ) {
    this.attempts = options.attempts ?? 5;
    this.retryAfterMs = options.retryAfterMs ?? 500;
  }

  async send(messages: readonly FeedMessage[]): Promise<void> {
    let pending = messages.map((message) => sqsRecord(feedMessageBody(message), 'feed'));
    await retry(
      async (delivery) => {
        const failed = new Set<string>();
        const batches: SQSRecord[][] = [];
        for (let i = 0; i < pending.length; i += this.options.batchSize)
          batches.push(pending.slice(i, i + this.options.batchSize));
        await mapLimit(batches, this.options.maxConcurrency, async (batch) => {
          for (const record of await invokeWithBatch(this.handler, batch, 'feed')) failed.add(record.messageId);
        });
        pending = pending
          .filter((record) => failed.has(record.messageId))
          .map((record) => ({
            ...record,
            attributes: { ...record.attributes, ApproximateReceiveCount: String(delivery + 1) },
          }));
        if (pending.length > 0)
          throw new Undelivered(`local feed queue: ${pending.length} messages failed ${delivery} times`);
      },
      // The visibility timeout: a fixed pause before failed messages are handed over again.
      {
        tries: this.attempts,
        baseDelayMs: this.retryAfterMs,
        factor: 1,
        jitter: 0,
        retryable: (e) => e instanceof Undelivered,
      },
    );
  }
}
