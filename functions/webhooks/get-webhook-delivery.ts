import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { getDeliveryWithAttempts } from '../../shared/store/webhook-deliveries.js';
import { getDeliverySources } from '../../shared/store/webhook-delivery-detail.js';
import { webhookBody } from '../../shared/webhooks/body.js';
import { deliveryNotFound } from '../../shared/webhooks/endpoint-errors.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

const readDelivery = ({ params }: PrefetchRequest<typeof routes.getWebhookDelivery>) =>
  getDeliveryWithAttempts(params.delivery_id);

/**
 * The delivery with its attempts and the exact body they sent (null once the event has expired).
 * Two round trips: the delivery's partition is read ahead beside the credential; then the caller's
 * membership, the endpoint (its name) and the event (the body) go out in one BatchGetItem.
 */
export const handler = httpHandler(
  routes.getWebhookDelivery,
  async ({ params, auth, reads, prefetched }) => {
    const found = await prefetched;
    const [, sources] = await Promise.all([
      requireOwnerOrAdmin(auth.principal, params.workspace_id, reads),
      found && getDeliverySources(found.delivery, reads),
    ]);
    if (!found || !sources || found.delivery.workspace_id !== params.workspace_id) throw deliveryNotFound();
    return {
      delivery: presentWebhooks.delivery(found.delivery, sources.endpoint?.name ?? ''),
      attempts: found.attempts.map(presentWebhooks.attempt),
      payload: sources.event ? webhookBody(sources.event) : null,
    };
  },
  { prefetch: readDelivery },
);
