import type { ErasureMessage } from '../../shared/domain/erasure.js';
import { retry } from '../../shared/pipeline/retry.js';
import { erasureMessageBody, type ErasureQueue, type ErasureScheduler } from '../../shared/ports/erasure-queue.js';
import { invokeWithBatch, sqsRecord, type SqsHandler } from './local-sqs.js';

/** Deliveries of a message before it is dropped (the queue's maxReceiveCount; in AWS it then goes to the DLQ). */
const ATTEMPTS = 5;
/** The visibility timeout: a fixed pause before a failed message is handed over again. */
const RETRY_AFTER_MS = 500;
/** setTimeout's ceiling (~24.8 days): a later time is reached in hops. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

class Undelivered extends Error {}

/**
 * The local stand-in for the erasure queue, its event source and the one-off schedules: in
 * process, each message handed to the consumer on its own (as a batch of one) once its delay
 * passes, a failed one handed over again a few times. `send` resolves once the messages are
 * queued, not handled, as SQS's does: each step enqueues the next. Messages and timers die with
 * the process; the runtime's `resume` (erasure-runtime.ts) picks the jobs up after a restart.
 */
export class LocalErasureQueue implements ErasureQueue, ErasureScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly handler: SqsHandler) {}

  send(messages: readonly ErasureMessage[], delaySeconds = 0): Promise<void> {
    for (const message of messages) this.after(delaySeconds * 1000, () => this.handle(message));
    return Promise.resolve();
  }

  schedule(message: ErasureMessage, at: Date): Promise<void> {
    this.at(at, () => this.handle(message));
    return Promise.resolve();
  }

  /** Stops handing messages over and waits for the steps running now. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private at(at: Date, run: () => void): void {
    const wait = at.getTime() - Date.now();
    if (wait <= LONGEST_TIMER_MS) this.after(Math.max(0, wait), run);
    else this.after(LONGEST_TIMER_MS, () => this.at(at, run));
  }

  private after(ms: number, run: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) run();
    }, ms);
    this.timers.add(timer);
  }

  private handle(message: ErasureMessage): void {
    let record = sqsRecord(erasureMessageBody(message), 'erasure');
    const step = retry(
      async (delivery) => {
        record = { ...record, attributes: { ...record.attributes, ApproximateReceiveCount: String(delivery) } };
        if (this.stopped) return;
        const failed = await invokeWithBatch(this.handler, [record], 'erasure');
        if (failed.length > 0) throw new Undelivered(`local erasure queue: a step failed ${delivery} times`);
      },
      {
        tries: ATTEMPTS,
        baseDelayMs: RETRY_AFTER_MS,
        factor: 1,
        jitter: 0,
        retryable: (e) => e instanceof Undelivered,
      },
    ).catch((error: unknown) => console.error('local erasure queue: message dropped', error));
    this.running.add(step);
    void step.finally(() => this.running.delete(step));
  }
}
