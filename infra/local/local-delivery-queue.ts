import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { messageBody, type DeliveryMessage, type DeliveryQueue } from '../../shared/ports/delivery-queue.js';

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** A message as the SQS event source hands it to a function, received for the first time. */
export function sqsRecord(body: string, queueName: string): SQSRecord {
  const now = String(Date.now());
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queueName}`,
    awsRegion: 'local',
  };
}

export interface LocalQueueOptions {
  /** Records per handler invocation (the event source's batchSize). */
  batchSize?: number;
  /** Handler invocations in flight at once (the event source's maxConcurrency). */
  maxConcurrency?: number;
  /** Delay before a failed record is seen again (the visibility timeout), in ms. */
  redeliverAfterMs?: number;
}

/**
 * The local stand-in for SQS + the event source mapping: in-process, delays by timers, and feeds
 * the same sender handler with SQS-shaped events, honouring ReportBatchItemFailures.
 */
export class LocalDeliveryQueue implements DeliveryQueue {
  /** In memory: a restart loses what it holds, so deliveries stay in the sweeper's index. */
  readonly durable = false;
  private readonly ready: SQSRecord[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  private readonly batchSize: number;
  private readonly maxConcurrency: number;
  private readonly redeliverAfterMs: number;

  constructor(
    private readonly handler: SqsHandler,
    options: LocalQueueOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 10;
    this.maxConcurrency = options.maxConcurrency ?? 10;
    this.redeliverAfterMs = options.redeliverAfterMs ?? 5000;
  }

  async enqueue(message: DeliveryMessage, delaySeconds = 0): Promise<void> {
    if (this.stopped) return;
    const record = sqsRecord(messageBody(message), 'deliveries');
    this.later(delaySeconds * 1000, record);
  }

  private later(ms: number, record: SQSRecord): void {
    if (ms <= 0) {
      this.ready.push(record);
      this.pump();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.ready.push(record);
      this.pump();
    }, ms);
    this.timers.add(timer);
  }

  private pump(): void {
    while (!this.stopped && this.ready.length > 0 && this.inFlight.size < this.maxConcurrency) {
      const batch = this.ready.splice(0, this.batchSize);
      const run = this.invoke(batch).finally(() => {
        this.inFlight.delete(run);
        this.pump();
      });
      this.inFlight.add(run);
    }
  }

  private async invoke(batch: SQSRecord[]): Promise<void> {
    let failed: Set<string>;
    try {
      const response = await this.handler({ Records: batch });
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      console.error('local deliveries queue: handler failed', error);
      failed = new Set(batch.map((r) => r.messageId));
    }
    for (const record of batch) {
      if (!failed.has(record.messageId)) continue;
      const count = Number(record.attributes.ApproximateReceiveCount) + 1;
      this.later(this.redeliverAfterMs, {
        ...record,
        attributes: { ...record.attributes, ApproximateReceiveCount: String(count) },
      });
    }
  }

  /** Stops taking messages and waits (up to `waitMs`) for handler invocations in flight. */
  async stop(waitMs = 3000): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.ready.length = 0;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, waitMs).unref())]);
  }
}
