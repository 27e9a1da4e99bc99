/**
 * The outside world of the delivery pipeline. The pipeline functions take these as arguments; the
 * Lambda entry points (functions/webhook-pipeline) pass the AWS adapters, the local runtime
 * (infra/local) its in-process ones.
 */
import { MAX_QUEUE_DELAY_SECONDS, type DeliveryMessage, type DeliveryQueue } from './delivery-queue.js';
import type { DeliveryMetrics } from './delivery-metrics.js';
import type { HttpSender } from './http-sender.js';
import type { RetryScheduler } from './retry-scheduler.js';

export interface DeliveryPorts {
  queue: DeliveryQueue;
  scheduler: RetryScheduler;
  http: HttpSender;
  /** Attempt metrics; the local runtime runs without them. */
  metrics?: DeliveryMetrics;
}

/** Sends the message now or at `at`: on the queue with a delay up to 15 min, else via the scheduler. */
export async function dispatch(
  ports: Pick<DeliveryPorts, 'queue' | 'scheduler'>,
  message: DeliveryMessage,
  at: Date,
  now: Date,
): Promise<void> {
  const delaySeconds = Math.max(0, (at.getTime() - now.getTime()) / 1000);
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) await ports.queue.enqueue(message, delaySeconds);
  else await ports.scheduler.schedule(message, at);
}
