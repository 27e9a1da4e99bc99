import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { getDeliveryWithAttempts } from '../../shared/store/webhook-deliveries.js';
import { getEndpointNames } from '../../shared/store/webhook-endpoints.js';
import { deliveryNotFound } from '../../shared/webhooks/endpoint-errors.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.getWebhookDelivery, async ({ params, auth }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const found = await getDeliveryWithAttempts(params.delivery_id);
  if (!found || found.delivery.workspace_id !== params.workspace_id) throw deliveryNotFound();
  const names = await getEndpointNames([found.delivery.webhook_endpoint_id]);
  return {
    delivery: presentWebhooks.delivery(found.delivery, names.get(found.delivery.webhook_endpoint_id) ?? ''),
    attempts: found.attempts.map(presentWebhooks.attempt),
  };
});
