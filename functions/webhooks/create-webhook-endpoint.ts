import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { newWebhookEndpoint } from '../../shared/domain/webhooks.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { config } from '../../shared/config.js';
import { createEndpoint } from '../../shared/store/webhook-endpoints.js';
import { activeEndpointLimit } from '../../shared/webhooks/endpoint-errors.js';
import { allowedUrl, assertWorkspaceProfiles } from '../../shared/webhooks/endpoint-input.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

export const handler = httpHandler(routes.createWebhookEndpoint, async ({ params, body, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const url = allowedUrl(body.url);
  const profiles = await assertWorkspaceProfiles(params.workspace_id, body.profile_ids);
  const endpoint = newWebhookEndpoint(now, params.workspace_id, { ...body, url });
  if ((await createEndpoint(endpoint, config.webhookMaxActiveEndpoints)) === 'limit_reached')
    throw activeEndpointLimit();
  return withHint(
    { webhook_endpoint: presentWebhooks.endpoint(endpoint, profiles), secret: endpoint.secret },
    'Store the secret now: it is shown only in this response. Verify deliveries with a Standard Webhooks library.',
  );
});
