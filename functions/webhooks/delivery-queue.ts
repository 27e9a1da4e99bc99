/**
 * The deliveries queue for the HTTP handlers that enqueue (the manual retry). A module, not an
 * argument: an HTTP Lambda has no entry point of its own to wire ports in, and the local server
 * runs these same handler modules. So the SQS adapter is built from config on first use (only the
 * SQS SDK is bundled, never the Scheduler's: a manual retry is due at once), and the local runtime
 * puts its in-process queue in place with `useLocalDeliveryQueue` while it runs.
 */
import type { DeliveryQueue } from '../../shared/ports/delivery-queue.js';
import { sqsDeliveryQueueFromConfig } from '../../shared/ports/aws/sqs-delivery-queue.js';

let sqs: DeliveryQueue | undefined;
let local: DeliveryQueue | undefined;

export function deliveryQueue(): DeliveryQueue {
  return local ?? (sqs ??= sqsDeliveryQueueFromConfig());
}

/** For infra/local only: the in-process queue while the local runtime runs, `undefined` after. */
export function useLocalDeliveryQueue(queue: DeliveryQueue | undefined): void {
  local = queue;
}
