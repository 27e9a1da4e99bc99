/** Lambda, scheduled (every minute): re-enqueue overdue pending deliveries, release abandoned claims. */
import { config } from '../../shared/config.js';
import { staleClaimMs } from '../../shared/domain/webhooks.js';
import { logger } from '../../shared/logger.js';
import { sqsDeliveryQueueFromConfig } from '../../shared/ports/aws/sqs-delivery-queue.js';
import { sweepDeliveries } from '../../shared/webhooks/sweep.js';

/** In AWS a due retry is on the queue within seconds; two minutes overdue means it was lost. */
const GRACE_MS = 120_000;
const ports = { queue: sqsDeliveryQueueFromConfig() };

export const handler = async (): Promise<void> => {
  const result = await sweepDeliveries(new Date(), ports, {
    graceMs: GRACE_MS,
    staleClaimMs: staleClaimMs(config.webhookTimeoutMs),
  });
  if (result.requeued > 0) logger.info('webhook sweeper re-enqueued deliveries', { ...result });
};
