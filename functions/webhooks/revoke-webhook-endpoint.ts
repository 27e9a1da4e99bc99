import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { changeStatus, endpointProfiles, loadEndpoint } from '../../shared/webhooks/workspace-endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

/** Revokes at once and for good; revoking again answers the revoked endpoint. */
export const handler = httpHandler(routes.revokeWebhookEndpoint, async ({ params, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const endpoint = await loadEndpoint(params.workspace_id, params.webhook_endpoint_id);
  if (endpoint.status === 'revoked')
    return { webhook_endpoint: presentWebhooks.endpoint(endpoint, await endpointProfiles([endpoint])) };
  const at = now.toISOString();
  const revoked = await changeStatus(endpoint, 'revoked', { revoked_at: at, updated_at: at });
  return withHint(
    { webhook_endpoint: presentWebhooks.endpoint(revoked, await endpointProfiles([revoked])) },
    'No new deliveries go to this endpoint; pending retries to it end as failed.',
  );
});
