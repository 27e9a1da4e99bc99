import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../../config.js';
import type { ErasureMessage } from '../../domain/erasure.js';
import { retry, type RetryPolicy } from '../../pipeline/retry.js';
import { erasureMessageBody, type ErasureQueue } from '../erasure-queue.js';

/** SQS takes at most 10 messages per SendMessageBatch (a step sends one, a pass's start a few). */
const PER_CALL = 10;
/** Entries SQS refused sent again: up to 4 calls, after about 0.1, 0.2, 0.4 s (jittered). */
const REFUSED_RETRY: RetryPolicy = {
  tries: 4,
  baseDelayMs: 100,
  factor: 2,
  retryable: (error) => error instanceof Refused,
};

class Refused extends Error {}

/** The AWS adapter: SendMessageBatch, with the pass's pause as DelaySeconds (at most SQS's 900). */
export class SqsErasureQueue implements ErasureQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly client: SQSClient = new SQSClient({}),
  ) {}

  async send(messages: readonly ErasureMessage[], delaySeconds?: number): Promise<void> {
    for (let i = 0; i < messages.length; i += PER_CALL) {
      let pending = messages.slice(i, i + PER_CALL).map((m, j) => ({
        Id: String(j),
        MessageBody: erasureMessageBody(m),
        ...(delaySeconds ? { DelaySeconds: Math.min(900, delaySeconds) } : {}),
      }));
      await retry(async () => {
        const result = await this.client.send(
          new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: pending }),
        );
        const failed = new Set((result.Failed ?? []).map((f) => f.Id));
        pending = pending.filter((entry) => failed.has(entry.Id));
        if (pending.length > 0) throw new Refused(`SQS refused ${pending.length} erasure messages`);
      }, REFUSED_RETRY);
    }
  }
}

/** The deployed queue (ERASURE_QUEUE_URL); without it, sending fails with a clear message. */
export function sqsErasureQueueFromConfig(): ErasureQueue {
  const queueUrl = config.erasureQueueUrl;
  if (queueUrl) return new SqsErasureQueue(queueUrl);
  return { send: () => Promise.reject(new Error('ERASURE_QUEUE_URL is not configured')) };
}
