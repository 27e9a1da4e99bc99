import { setTimeout as sleep } from 'node:timers/promises';
import type { SQSRecord } from 'aws-lambda';
import { feedMessageBody, type FeedMessage, type FeedQueue } from '../../shared/ports/feed-queue.js';
import { forEachLimit } from '../../shared/webhooks/bounded.js';
import { sqsRecord, type SqsHandler } from './local-delivery-queue.js';

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
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > 1) await sleep(this.retryAfterMs);
      const failed = new Set<string>();
      const batches: SQSRecord[][] = [];
      for (let i = 0; i < pending.length; i += this.options.batchSize)
        batches.push(pending.slice(i, i + this.options.batchSize));
      await forEachLimit(batches, this.options.maxConcurrency, async (batch) => {
        try {
          const response = await this.handler({ Records: batch });
          for (const failure of response?.batchItemFailures ?? []) failed.add(failure.itemIdentifier);
        } catch (error) {
          console.error('local feed queue: handler failed', error);
          for (const record of batch) failed.add(record.messageId);
        }
      });
      pending = pending
        .filter((record) => failed.has(record.messageId))
        .map((record) => ({
          ...record,
          attributes: { ...record.attributes, ApproximateReceiveCount: String(attempt + 1) },
        }));
      if (pending.length > 0 && attempt >= this.attempts)
        throw new Error(`local feed queue: ${pending.length} messages failed ${attempt} times`);
    }
  }
}
