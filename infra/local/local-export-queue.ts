import type { SQSRecord } from 'aws-lambda';
import { EXPORT_JOB_TRIES } from '../../shared/domain/exports.js';
import { exportMessageBody, type ExportMessage, type ExportQueue } from '../../shared/ports/export-queue.js';
import { invokeWithBatch, receivedAgain, sqsRecord, type SqsHandler } from './local-sqs.js';

/**
 * The local stand-in for the export queue and its event source: in-process, one message per
 * invocation, a failed one handed over again after `redeliverAfterMs` until its receive count
 * reaches the queue's (EXPORT_JOB_TRIES; in AWS it would then move to the dead-letter queue).
 * In memory: the runtime queues again, at start, the exports a stopped server left pending (export-runtime.ts).
 */
export class LocalExportQueue implements ExportQueue {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly handler: SqsHandler,
    private readonly redeliverAfterMs = 1000,
  ) {}

  enqueue(message: ExportMessage): Promise<void> {
    if (!this.stopped) this.run(sqsRecord(exportMessageBody(message), 'exports'));
    return Promise.resolve();
  }

  private run(record: SQSRecord): void {
    const run = invokeWithBatch(this.handler, [record], 'exports')
      .then(([failed]) => {
        if (!failed || this.stopped || Number(failed.attributes.ApproximateReceiveCount) >= EXPORT_JOB_TRIES) return;
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.run(receivedAgain(failed));
        }, this.redeliverAfterMs);
        this.timers.add(timer);
      })
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
