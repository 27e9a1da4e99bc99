import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { listRecentDeliveries } from '../../shared/store/webhook-deliveries.js';
import { getTotals } from '../../shared/store/webhook-endpoints.js';
import { endpointNames } from './endpoints.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.listWebhookDeliveries, async ({ params, auth }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const [totals, deliveries] = await Promise.all([getTotals(params.workspace_id), listRecentDeliveries(params.workspace_id)]);
  const names = await endpointNames(deliveries.map((d) => d.webhook_endpoint_id));
  return {
    totals: presentWebhooks.totals(totals),
    items: deliveries.map((d) => presentWebhooks.delivery(d, names.get(d.webhook_endpoint_id) ?? '')),
  };
});
