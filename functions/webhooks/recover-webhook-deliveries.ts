import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { RECOVERY_WINDOW_MS } from '../../shared/domain/webhooks.js';
import { AppError } from '../../shared/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { sqsDeliveryQueueFromConfig } from '../../shared/ports/aws/sqs-delivery-queue.js';
import type { DeliveryPorts } from '../../shared/ports/delivery-ports.js';
import { recoverDeliveries } from '../../shared/webhooks/recover.js';
import { endpointNotActive } from '../../shared/webhooks/endpoint-errors.js';
import { loadEndpoint } from '../../shared/webhooks/workspace-endpoints.js';
import { routes } from '../../shared/http/contract/routes/webhooks.js';

const invalidWindow = (hint: string) => new AppError('invalid_request', { message: 'Invalid recovery window.', hint });

/** 202 { queued }: the endpoint's failed deliveries in the window are restarted and sent again. */
export const handler = httpHandler(
  routes.recoverWebhookDeliveries,
  async ({ params, body, auth, now, ports }) => {
    await requireOwnerOrAdmin(auth.principal, params.workspace_id);
    const endpoint = await loadEndpoint(params.workspace_id, params.webhook_endpoint_id);
    const until = body.until ?? now.toISOString();
    if (body.since >= until)
      throw invalidWindow('body.since must be before body.until (or before now when until is omitted).');
    if (Date.parse(until) - Date.parse(body.since) > RECOVERY_WINDOW_MS)
      throw invalidWindow('The window from body.since to body.until may span at most 14 days.');
    if (endpoint.status !== 'active') throw endpointNotActive();
    return { queued: await recoverDeliveries(endpoint.id, body.since, until, now.toISOString(), ports.queue) };
  },
  { ports: (): Pick<DeliveryPorts, 'queue'> => ({ queue: sqsDeliveryQueueFromConfig() }) },
);
