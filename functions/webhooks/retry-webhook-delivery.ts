import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { sqsDeliveryQueueFromConfig } from '../../shared/ports/aws/sqs-delivery-queue.js';
import type { DeliveryPorts } from '../../shared/ports/delivery-ports.js';
import { deliveryMessage } from '../../shared/ports/delivery-queue.js';
import { getDelivery, restartDelivery } from '../../shared/store/webhook-deliveries.js';
import { getEndpoint, getEndpointNames } from '../../shared/store/webhook-endpoints.js';
import { deliveryNotFound, endpointNotActive } from '../../shared/webhooks/endpoint-errors.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

const notFailed = () =>
  new ApiError('invalid_state', {
    message: 'Only a failed delivery can be retried.',
    hint: 'Pending and delivering deliveries are retried automatically; succeeded ones are done.',
  });

/** failed → pending, attempted again at once; attempt numbering continues, the webhook-id stays. */
export const handler = httpHandler(
  routes.retryWebhookDelivery,
  async ({ params, auth, now, ports }) => {
    await requireOwnerOrAdmin(auth.principal, params.workspace_id);
    const delivery = await getDelivery(params.delivery_id);
    if (!delivery || delivery.workspace_id !== params.workspace_id) throw deliveryNotFound();
    if (delivery.status !== 'failed') throw notFailed();
    const endpoint = await getEndpoint(delivery.webhook_endpoint_id);
    if (endpoint?.status !== 'active') throw endpointNotActive();
    const restarted = await restartDelivery(delivery, now.toISOString());
    if (!restarted) throw notFailed();
    // The answer is the delivery as restarted (pending): the attempt may already be under way.
    await ports.queue.enqueue(deliveryMessage(delivery, delivery.attempt_count + 1));
    const names = await getEndpointNames([delivery.webhook_endpoint_id]);
    return { delivery: presentWebhooks.delivery(restarted, names.get(delivery.webhook_endpoint_id) ?? '') };
  },
  { ports: (): Pick<DeliveryPorts, 'queue'> => ({ queue: sqsDeliveryQueueFromConfig() }) },
);
