/**
 * Recovery: the failed deliveries of one endpoint in a time window go out again, each restarted
 * like a manual retry (failed → pending, conditioned on it still being failed, so two concurrent
 * recoveries restart it once) and put on the queue.
 */
import { RECOVERY_BATCH_LIMIT, recoverable } from '../domain/webhooks.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { deliveryMessage, type DeliveryQueue } from '../ports/delivery-queue.js';
import { listFailedDeliveries } from '../store/webhook-delivery-log.js';
import { restartDelivery } from '../store/webhook-deliveries.js';

/** Restarts queued at once: enough to be quick, few enough not to flood the table. */
const PARALLEL = 25;

/** Returns how many deliveries were restarted and queued. */
export async function recoverDeliveries(
  endpointId: string,
  since: string,
  until: string,
  now: string,
  queue: DeliveryQueue,
): Promise<number> {
  const failed = (await listFailedDeliveries(endpointId, since, until, RECOVERY_BATCH_LIMIT)).filter((d) =>
    recoverable(d, since, until),
  );
  let queued = 0;
  await mapLimit(failed, PARALLEL, async (delivery) => {
    const restarted = await restartDelivery(delivery, now);
    if (!restarted) return;
    await queue.enqueue(deliveryMessage(delivery, delivery.attempt_count + 1));
    queued += 1;
  });
  return queued;
}
