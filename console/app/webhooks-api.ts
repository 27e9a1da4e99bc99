/**
 * The webhook calls of the console. Operations in the served OpenAPI document go through the
 * typed client; the two that API.md describes but the document may not serve yet (delivery
 * filters and paging, endpoint recovery) are used only when `features` says they are served.
 */
import { ApiProblem, problemFrom, unwrap, type Schemas } from '../api/client.js';
import type { DeliveryQuery } from './delivery-filters.js';
import { api, session } from './session.js';

export type Endpoint = Schemas['WebhookEndpoint'];
export type Delivery = Schemas['WebhookDelivery'];
export type Attempt = Schemas['WebhookAttempt'];
export type Totals = Schemas['WebhookTotals'];
export type EndpointList = Schemas['WebhookEndpointList'];
export type EventTypeEntry = Schemas['EventCatalogueEntry'];

const ws = (workspaceId: string) => ({ path: { workspace_id: workspaceId } });
const ep = (workspaceId: string, endpointId: string) => ({ path: { workspace_id: workspaceId, webhook_endpoint_id: endpointId } });
const dl = (workspaceId: string, deliveryId: string) => ({ path: { workspace_id: workspaceId, delivery_id: deliveryId } });

export interface EndpointInput {
  name: string;
  url: string;
  event_types: EventTypeEntry['type'][];
  profile_ids: string[];
}

export const webhooks = {
  me: () => unwrap(api.GET('/v1/me')),
  logOut: () => unwrap(api.DELETE('/v1/sessions/current')),
  eventTypes: () => unwrap(api.GET('/v1/webhook-event-types')),
  endpoints: (workspaceId: string) => unwrap(api.GET('/v1/workspaces/{workspace_id}/webhook-endpoints', { params: ws(workspaceId) })),
  createEndpoint: (workspaceId: string, body: EndpointInput) =>
    unwrap(api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints', { params: ws(workspaceId), body })),
  updateEndpoint: (workspaceId: string, endpointId: string, body: Partial<EndpointInput>) =>
    unwrap(api.PATCH('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}', { params: ep(workspaceId, endpointId), body })),
  enableEndpoint: (workspaceId: string, endpointId: string) =>
    unwrap(api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/enable', { params: ep(workspaceId, endpointId) })),
  rotateSecret: (workspaceId: string, endpointId: string) =>
    unwrap(api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/rotate-secret', { params: ep(workspaceId, endpointId) })),
  sendTest: (workspaceId: string, endpointId: string) =>
    unwrap(api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/test', { params: ep(workspaceId, endpointId) })),
  revokeEndpoint: (workspaceId: string, endpointId: string) =>
    unwrap(api.DELETE('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}', { params: ep(workspaceId, endpointId) })),
  /**
   * Totals and deliveries. The query goes out only when the API takes it (features); the cast
   * goes away once the served document declares these parameters and the types are regenerated.
   */
  deliveries: async (workspaceId: string, query: DeliveryQuery = {}) => {
    const data = await unwrap(
      api.GET('/v1/workspaces/{workspace_id}/webhook-deliveries', { params: { ...ws(workspaceId), query: query as never } }),
    );
    return data as typeof data & { next_cursor?: string | null };
  },
  delivery: (workspaceId: string, deliveryId: string) =>
    unwrap(api.GET('/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}', { params: dl(workspaceId, deliveryId) })),
  retryDelivery: (workspaceId: string, deliveryId: string) =>
    unwrap(api.POST('/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}/retry', { params: dl(workspaceId, deliveryId) })),
  /** POST …/recover { since, until? } → 202 { queued } (API.md); not in the typed client until served. */
  recover: async (workspaceId: string, endpointId: string, window: { since: string; until?: string }): Promise<{ queued: number }> => {
    const path = `v1/workspaces/${encodeURIComponent(workspaceId)}/webhook-endpoints/${encodeURIComponent(endpointId)}/recover`;
    let response: Response;
    try {
      response = await fetch(new URL(path, new URL('.', location.href)), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token() ?? ''}` },
        body: JSON.stringify(window),
      });
    } catch {
      throw new ApiProblem(0, 'network_error', 'The API could not be reached.', 'Check your connection and try again.');
    }
    const body = (await response.json().catch(() => undefined)) as { data?: { queued: number } } | undefined;
    if (!response.ok || !body?.data) throw problemFrom(response.status, body);
    return body.data;
  },
};
