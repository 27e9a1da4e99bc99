import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { changeStatus, loadEndpoint, presentEndpoint } from './endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

/** Revokes at once and for good; revoking again answers the revoked endpoint. */
export const handler = httpHandler(routes.revokeWebhookEndpoint, async ({ params, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const endpoint = await loadEndpoint(params.workspace_id, params.webhook_endpoint_id);
  if (endpoint.status === 'revoked') return { webhook_endpoint: await presentEndpoint(endpoint) };
  const at = now.toISOString();
  const revoked = await changeStatus(endpoint, 'revoked', { revoked_at: at, updated_at: at });
  return withHint(
    { webhook_endpoint: await presentEndpoint(revoked) },
    'No new deliveries go to this endpoint; pending retries to it end as failed.',
  );
});
