import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { getDeliveryWithAttempts } from '../../shared/store/webhook-deliveries.js';
import { deliveryNotFound, endpointNames } from './endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

export const handler = httpHandler(routes.getWebhookDelivery, async ({ params, auth }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const found = await getDeliveryWithAttempts(params.delivery_id);
  if (!found || found.delivery.workspace_id !== params.workspace_id) throw deliveryNotFound();
  const names = await endpointNames([found.delivery.webhook_endpoint_id]);
  return {
    delivery: presentWebhooks.delivery(found.delivery, names.get(found.delivery.webhook_endpoint_id) ?? ''),
    attempts: found.attempts.map(presentWebhooks.attempt),
  };
});
