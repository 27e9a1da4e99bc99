import { auditTarget } from '../../shared/audit/write-context.js';
import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { TEST_EVENT_TYPE } from '../../shared/domain/events.js';
import { newId } from '../../shared/domain/ids.js';
import { deliveryIdFor } from '../../shared/domain/webhooks.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import type { WebhookEventBody } from '../../shared/http/contract/schemas/webhook-events.js';
import { writeWebhookEvent } from '../../shared/store/webhook-endpoints.js';
import { endpointRevoked } from '../../shared/webhooks/endpoint-errors.js';
import { loadEndpoint } from '../../shared/webhooks/workspace-endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

/** Emits a `webhook.test` event that the fan-out delivers to this endpoint only. */
export const handler = httpHandler(routes.testWebhookEndpoint, async ({ params, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const endpoint = await loadEndpoint(params.workspace_id, params.webhook_endpoint_id);
  if (endpoint.status === 'revoked') throw endpointRevoked();
  if (endpoint.status !== 'active') {
    throw new ApiError('invalid_state', {
      message: 'The endpoint is disabled.',
      hint: 'Re-enable it with POST .../webhook-endpoints/{webhook_endpoint_id}/enable, then send the test again.',
    });
  }
  const id = newId();
  auditTarget({ type: 'webhook_endpoint', id: endpoint.id });
  await writeWebhookEvent({
    id,
    type: TEST_EVENT_TYPE,
    profile_id: endpoint.profile_ids[0]!,
    workspace_id: endpoint.workspace_id,
    webhook_endpoint_id: endpoint.id,
    created_at: now.toISOString(),
    data: {
      webhook_endpoint_id: endpoint.id,
      message: 'This is a test event.',
    } satisfies WebhookEventBody<typeof TEST_EVENT_TYPE>['data'],
  });
  return withHint(
    { webhook_event_id: id, webhook_delivery_id: deliveryIdFor(id, endpoint.id) },
    'Follow the delivery with GET /v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}.',
  );
});
