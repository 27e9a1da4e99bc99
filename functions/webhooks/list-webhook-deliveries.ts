import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { ACTIVITY_LIMIT } from '../../shared/domain/webhooks.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { listDeliveries } from '../../shared/store/webhook-delivery-log.js';
import { getEndpointNames } from '../../shared/store/webhook-endpoints.js';
import { getTotals } from '../../shared/store/webhook-totals.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

/** The totals and one page of the log (by default the spec's 50 most recently updated). */
export const handler = httpHandler(routes.listWebhookDeliveries, async ({ params, query, auth }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const { limit, cursor, ...filter } = query;
  const [totals, page] = await Promise.all([
    getTotals(params.workspace_id),
    listDeliveries(params.workspace_id, filter, { limit: limit ?? ACTIVITY_LIMIT, cursor }),
  ]);
  const names = await getEndpointNames(page.items.map((d) => d.webhook_endpoint_id));
  return {
    totals: presentWebhooks.totals(totals),
    items: page.items.map((d) => presentWebhooks.delivery(d, names.get(d.webhook_endpoint_id) ?? '')),
    next_cursor: page.next_cursor,
  };
});
