/** The webhook calls of the console, all through the typed client. */
import { unwrap, type Schemas } from '@social-network/sdk';
import type { DeliveryQuery } from './delivery-filters.js';
import { api } from './session.js';

export type Endpoint = Schemas['WebhookEndpoint'];
export type Delivery = Schemas['WebhookDelivery'];
export type Attempt = Schemas['WebhookAttempt'];
export type Totals = Schemas['WebhookTotals'];
export type EndpointList = Schemas['WebhookEndpointList'];
/** The console names and explains the types; the schema and example of each it leaves to the API reference. */
export type EventTypeEntry = Pick<Schemas['EventCatalogueEntry'], 'type' | 'description'>;

const ws = (workspaceId: string) => ({ path: { workspace_id: workspaceId } });
const ep = (workspaceId: string, endpointId: string) => ({
  path: { workspace_id: workspaceId, webhook_endpoint_id: endpointId },
});
const dl = (workspaceId: string, deliveryId: string) => ({
  path: { workspace_id: workspaceId, delivery_id: deliveryId },
});

export interface EndpointInput {
  name: string;
  url: string;
  event_types: EventTypeEntry['type'][];
  profile_ids: string[];
  /** null: no limit of its own. */
  rate_limit_per_second: number | null;
}

export const webhooks = {
  me: () => unwrap(api.GET('/v1/me')),
  logOut: () => unwrap(api.DELETE('/v1/sessions/current')),
  eventTypes: () => unwrap(api.GET('/v1/webhook-event-types')),
  endpoints: (workspaceId: string) =>
    unwrap(api.GET('/v1/workspaces/{workspace_id}/webhook-endpoints', { params: ws(workspaceId) })),
  createEndpoint: (workspaceId: string, body: EndpointInput) =>
    unwrap(api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints', { params: ws(workspaceId), body })),
  updateEndpoint: (workspaceId: string, endpointId: string, body: Partial<EndpointInput>) =>
    unwrap(
      api.PATCH('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}', {
        params: ep(workspaceId, endpointId),
        body,
      }),
    ),
  enableEndpoint: (workspaceId: string, endpointId: string) =>
    unwrap(
      api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/enable', {
        params: ep(workspaceId, endpointId),
      }),
    ),
  rotateSecret: (workspaceId: string, endpointId: string) =>
    unwrap(
      api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/rotate-secret', {
        params: ep(workspaceId, endpointId),
      }),
    ),
  sendTest: (workspaceId: string, endpointId: string) =>
    unwrap(
      api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/test', {
        params: ep(workspaceId, endpointId),
      }),
    ),
  revokeEndpoint: (workspaceId: string, endpointId: string) =>
    unwrap(
      api.DELETE('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}', {
        params: ep(workspaceId, endpointId),
      }),
    ),
  /** Totals and a page of deliveries, filtered and paged by the API. */
  deliveries: (workspaceId: string, query: DeliveryQuery = {}) =>
    unwrap(api.GET('/v1/workspaces/{workspace_id}/webhook-deliveries', { params: { ...ws(workspaceId), query } })),
  delivery: (workspaceId: string, deliveryId: string) =>
    unwrap(
      api.GET('/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}', {
        params: dl(workspaceId, deliveryId),
      }),
    ),
  retryDelivery: (workspaceId: string, deliveryId: string) =>
    unwrap(
      api.POST('/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}/retry', {
        params: dl(workspaceId, deliveryId),
      }),
    ),
  /** Re-sends the endpoint's failed deliveries of [since, until) once each: 202 { queued }. */
  recover: (workspaceId: string, endpointId: string, window: { since: string; until?: string }) =>
    unwrap(
      api.POST('/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/recover', {
        params: ep(workspaceId, endpointId),
        body: window,
      }),
    ),
};
