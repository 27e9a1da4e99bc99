import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { endpointRevoked } from '../../shared/webhooks/endpoint-errors.js';
import { allowedUrl, assertWorkspaceProfiles } from '../../shared/webhooks/endpoint-input.js';
import {
  changeEndpoint,
  endpointProfiles,
  freshHealth,
  loadEndpoint,
} from '../../shared/webhooks/workspace-endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

/**
 * A URL change keeps the id and secret; pending retries read the endpoint at send time, so they
 * use it. A new URL also starts a fresh health record (failures of the old one do not count).
 */
export const handler = httpHandler(routes.updateWebhookEndpoint, async ({ params, body, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const endpoint = await loadEndpoint(params.workspace_id, params.webhook_endpoint_id);
  if (endpoint.status === 'revoked') throw endpointRevoked();
  const url = body.url === undefined ? undefined : allowedUrl(body.url);
  if (body.profile_ids) await assertWorkspaceProfiles(params.workspace_id, body.profile_ids);
  const updated = await changeEndpoint(endpoint, [endpoint.status], {
    ...body,
    ...(url ? { url } : {}),
    updated_at: now.toISOString(),
  });
  if (url) await freshHealth(updated);
  return { webhook_endpoint: presentWebhooks.endpoint(updated, await endpointProfiles([updated])) };
});
