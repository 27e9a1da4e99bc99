/**
 * The sweeper: re-enqueues pending deliveries that are due but were never picked up (a lost
 * message, a timer that died with its process) and releases claims older than the sender can
 * take (a sender that died mid-attempt), so nothing is lost. Reads the due-time index, no scan.
 */
import { mapLimit } from '../pipeline/concurrency.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import { deliveryMessage } from '../ports/delivery-queue.js';
import { listDueDeliveries, releaseClaim } from '../store/webhook-deliveries.js';

/** Deliveries handled at once: a sweep after an outage may find thousands, the table takes them a lane at a time. */
const PARALLEL = 25;

export interface SweepResult {
  requeued: number;
  released: number;
}

export interface SweepSettings {
  /** How overdue a pending delivery must be before the sweeper steps in. */
  graceMs: number;
  /** How old a claim must be before it is presumed lost (`staleClaimMs` of the attempt timeout). */
  staleClaimMs: number;
}

export async function sweepDeliveries(
  now: Date,
  ports: Pick<DeliveryPorts, 'queue'>,
  { graceMs, staleClaimMs }: SweepSettings,
): Promise<SweepResult> {
  // A claim leaves the delivery at the due time it was claimed at: among the due ones.
  const due = await listDueDeliveries(now.toISOString());
  const overdue = new Date(now.getTime() - graceMs).toISOString();
  const staleBefore = new Date(now.getTime() - staleClaimMs).toISOString();
  const result: SweepResult = { requeued: 0, released: 0 };
  await mapLimit(due, PARALLEL, async (delivery) => {
    if (delivery.status === 'delivering') {
      // Claimed longer ago than a sender can take: the attempt is presumed lost.
      if ((delivery.claimed_at ?? '') > staleBefore || !(await releaseClaim(delivery, now.toISOString()))) return;
      result.released += 1;
    } else if (delivery.status !== 'pending' || (delivery.next_attempt_at ?? '') > overdue) return;
    await ports.queue.enqueue(deliveryMessage(delivery, delivery.attempt_count + 1));
    result.requeued += 1;
  });
  return result;
}
