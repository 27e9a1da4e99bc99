import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { newId, nowIso } from '../../shared/domain/ids.js';
import { generateSigningSecret } from '../../shared/domain/signing.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { putEndpoint } from '../../shared/store/webhook-endpoints.js';
import { assertUrlAllowed, assertWorkspaceProfiles } from '../../shared/webhooks/endpoints.js';
import { routes } from '../routes.js';

export const handler = httpHandler(routes.createWebhookEndpoint, async ({ params, body, auth }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  assertUrlAllowed(body.url);
  const profiles = await assertWorkspaceProfiles(params.workspace_id, body.profile_ids);
  const now = nowIso();
  const endpoint = {
    id: newId(),
    workspace_id: params.workspace_id,
    name: body.name,
    url: body.url,
    event_types: body.event_types,
    profile_ids: body.profile_ids,
    status: 'active' as const,
    secret: generateSigningSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    disabled_at: null,
    revoked_at: null,
    created_at: now,
    updated_at: now,
  };
  await putEndpoint(endpoint);
  return withHint(
    { webhook_endpoint: presentWebhooks.endpoint(endpoint, profiles), secret: endpoint.secret },
    'Store the secret now: it is shown only in this response. Verify deliveries with a Standard Webhooks library.',
  );
});
