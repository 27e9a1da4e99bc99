import type { SQSRecord } from 'aws-lambda';
import { messageBody, type DeliveryMessage, type DeliveryQueue } from '../../shared/ports/delivery-queue.js';
import { invokeWithBatch, receivedAgain, sqsRecord, type SqsHandler } from './local-sqs.js';

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
    for (const record of await invokeWithBatch(this.handler, batch, 'deliveries'))
      this.later(this.redeliverAfterMs, receivedAgain(record));
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
