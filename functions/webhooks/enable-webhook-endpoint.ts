import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { endpointRevoked } from '../../shared/webhooks/endpoint-errors.js';
import {
  changeStatus,
  endpointProfiles,
  freshHealth,
  loadEndpoint,
} from '../../shared/webhooks/workspace-endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

/** disabled → active (after a 410 or failing too long), with a fresh health record; enabling an active endpoint changes nothing. */
export const handler = httpHandler(routes.enableWebhookEndpoint, async ({ params, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const endpoint = await loadEndpoint(params.workspace_id, params.webhook_endpoint_id);
  if (endpoint.status === 'revoked') throw endpointRevoked();
  if (endpoint.status === 'active')
    return { webhook_endpoint: presentWebhooks.endpoint(endpoint, await endpointProfiles([endpoint])) };
  const enabled = await changeStatus(endpoint, 'active', {
    disabled_at: null,
    disabled_reason: null,
    updated_at: now.toISOString(),
  });
  await freshHealth(enabled);
  return { webhook_endpoint: presentWebhooks.endpoint(enabled, await endpointProfiles([enabled])) };
});
