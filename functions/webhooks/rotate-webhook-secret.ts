import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { generateSigningSecret } from '../../shared/domain/signing.js';
import { SECRET_ROTATION_OVERLAP_MS } from '../../shared/domain/webhooks.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { endpointRevoked } from '../../shared/webhooks/endpoint-errors.js';
import { changeEndpoint, loadEndpoint } from '../../shared/webhooks/workspace-endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

/** New secret; the old one keeps signing alongside it for 24 hours (two `v1,` signatures). */
export const handler = httpHandler(routes.rotateWebhookSecret, async ({ params, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const endpoint = await loadEndpoint(params.workspace_id, params.webhook_endpoint_id);
  if (endpoint.status === 'revoked') throw endpointRevoked();
  const secret = generateSigningSecret();
  await changeEndpoint(endpoint, [endpoint.status], {
    secret,
    previous_secret: endpoint.secret,
    previous_secret_expires_at: new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS).toISOString(),
    updated_at: now.toISOString(),
  });
  return withHint(
    { secret },
    'Store the new secret now: it is shown only here. For 24 hours deliveries carry a signature with each secret.',
  );
});
