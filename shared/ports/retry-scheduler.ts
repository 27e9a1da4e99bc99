import type { DeliveryMessage } from './delivery-queue.js';

/** RetryScheduler port: puts a message on the deliveries queue at a later time (one-off schedule). */
export interface RetryScheduler {
  schedule(message: DeliveryMessage, at: Date): Promise<void>;
}
