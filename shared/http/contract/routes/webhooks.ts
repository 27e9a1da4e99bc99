/** The webhooks routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { WorkspaceParams } from '../schemas/identity.js';
import {
  CreateWebhookEndpointBody,
  RecoverWebhookDeliveriesBody,
  SigningSecret,
  UpdateWebhookEndpointBody,
  WebhookActivity,
  WebhookDeliveryLogQuery,
  WebhookRecoveryResult,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
  WebhookTestResult,
} from '../schemas/webhooks.js';

export const routes = {
  createWebhookEndpoint: defineRoute({
    method: 'POST',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints',
    handler: 'webhooks/create-webhook-endpoint',
    tag: 'Webhooks',
    summary: 'Creates a webhook endpoint; the signing secret (whsec_…) is returned only in this response.',
    description:
      'Owner/admin session only. The endpoint receives the selected event types for the selected profiles of this workspace; the operational types (webhook_endpoint.disabled, webhook_delivery.exhausted) concern the whole workspace, carry profile_id null and are not filtered by profile_ids. A workspace has at most WEBHOOK_MAX_ACTIVE_ENDPOINTS (default 20) active endpoints: one more is 409 invalid_state. At most 4 attempts are in flight to one endpoint and 10 per workspace; more wait on the queue, none is dropped.',
    auth: 'session',
    params: WorkspaceParams,
    body: CreateWebhookEndpointBody,
    status: 201,
    response: z.object({ webhook_endpoint: WebhookEndpoint, secret: SigningSecret }),
    idempotent: true,
    errors: ['forbidden', 'invalid_state'],
  }),
  listWebhookEndpoints: defineRoute({
    method: 'GET',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints',
    handler: 'webhooks/list-webhook-endpoints',
    tag: 'Webhooks',
    summary: 'The workspace, the profiles an endpoint can select, and the endpoints (never a secret).',
    auth: 'session',
    params: WorkspaceParams,
    status: 200,
    response: WebhookEndpointList,
    errors: ['forbidden'],
  }),
  updateWebhookEndpoint: defineRoute({
    method: 'PATCH',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}',
    handler: 'webhooks/update-webhook-endpoint',
    tag: 'Webhooks',
    summary:
      'Changes url, name, event_types, profile_ids or rate_limit_per_second; id and secret stay, pending retries use the new URL.',
    auth: 'session',
    params: WebhookEndpointParams,
    body: UpdateWebhookEndpointBody,
    status: 200,
    response: z.object({ webhook_endpoint: WebhookEndpoint }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  revokeWebhookEndpoint: defineRoute({
    method: 'DELETE',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}',
    handler: 'webhooks/revoke-webhook-endpoint',
    tag: 'Webhooks',
    summary: 'Revokes the endpoint: new deliveries stop at once and pending retries end failed; cannot be undone.',
    auth: 'session',
    params: WebhookEndpointParams,
    status: 200,
    response: z.object({ webhook_endpoint: WebhookEndpoint }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  enableWebhookEndpoint: defineRoute({
    method: 'POST',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/enable',
    handler: 'webhooks/enable-webhook-endpoint',
    tag: 'Webhooks',
    summary:
      'Re-enables an endpoint the sender disabled (410 Gone, or failing for the health period), with a fresh health record.',
    description:
      "An active endpoint answers as it is. Enabling beyond the workspace's active-endpoint cap is 409 invalid_state.",
    auth: 'session',
    params: WebhookEndpointParams,
    status: 200,
    response: z.object({ webhook_endpoint: WebhookEndpoint }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  rotateWebhookSecret: defineRoute({
    method: 'POST',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/rotate-secret',
    handler: 'webhooks/rotate-webhook-secret',
    tag: 'Webhooks',
    summary: 'Issues a new signing secret; the old one keeps signing alongside it for 24 hours.',
    auth: 'session',
    params: WebhookEndpointParams,
    status: 200,
    response: z.object({ secret: SigningSecret }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  testWebhookEndpoint: defineRoute({
    method: 'POST',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/test',
    handler: 'webhooks/test-webhook-endpoint',
    tag: 'Webhooks',
    summary: 'Sends a webhook.test event to this endpoint only.',
    auth: 'session',
    params: WebhookEndpointParams,
    status: 200,
    response: WebhookTestResult,
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  listWebhookDeliveries: defineRoute({
    method: 'GET',
    path: '/v1/workspaces/{workspace_id}/webhook-deliveries',
    handler: 'webhooks/list-webhook-deliveries',
    tag: 'Webhooks',
    summary: 'Delivery totals of the workspace and its 50 most recently updated deliveries; filters and paging.',
    description:
      'Without parameters: the totals and the 50 most recently updated deliveries, with next_cursor. Filters (status, event_type, ' +
      'webhook_endpoint_id, since (inclusive) and until (exclusive) on updated_at) combine with AND; the order stays most recently updated first. since/until ' +
      'narrow the index range itself; the other filters read at most twice limit deliveries per page (status=failed together with ' +
      'webhook_endpoint_id reads an exact index), so a page may be short or empty while next_cursor is not null: follow it until null. ' +
      'Deliveries expire after the retention period (30 days by default); the totals still count them. ' +
      "The totals are counted from the table's change stream: they lag the deliveries by one stream batch (about a second), " +
      'so right after a change the items can already show it while the totals do not yet; they never count a change twice. ' +
      "updated_at (and so the order and since/until) is the time of the delivery's creation, last attempt outcome, restart or release: " +
      'taking an attempt (status delivering) does not change it, the outcome follows within one attempt timeout.',
    auth: 'session',
    params: WorkspaceParams,
    query: WebhookDeliveryLogQuery,
    status: 200,
    response: WebhookActivity,
    errors: ['forbidden'],
  }),
  recoverWebhookDeliveries: defineRoute({
    method: 'POST',
    path: '/v1/workspaces/{workspace_id}/webhook-endpoints/{webhook_endpoint_id}/recover',
    handler: 'webhooks/recover-webhook-deliveries',
    tag: 'Webhooks',
    summary: "Sends again, once each, the endpoint's failed deliveries updated in a window of at most 14 days.",
    description:
      'For receivers that were down: every failed delivery of this endpoint whose last change is in [since, until) (until defaults ' +
      'to now) is restarted like a manual retry (attempt numbering continues, the webhook-id stays) and answered with how many were ' +
      'queued. A delivery restarted since the window began (by this call, an earlier recovery or a manual retry) is not restarted ' +
      'again, so repeating the call sends nothing twice. At most 1000 per call; call again to continue. The endpoint must be active.',
    auth: 'session',
    params: WebhookEndpointParams,
    body: RecoverWebhookDeliveriesBody,
    status: 202,
    response: WebhookRecoveryResult,
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  getWebhookDelivery: defineRoute({
    method: 'GET',
    path: '/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}',
    handler: 'webhooks/get-webhook-delivery',
    tag: 'Webhooks',
    summary: 'One delivery, the body it sent, and every attempt (status code, error, duration, response up to 2 KB).',
    auth: 'session',
    params: WebhookDeliveryParams,
    status: 200,
    response: WebhookDeliveryDetail,
    errors: ['forbidden', 'not_found'],
  }),
  retryWebhookDelivery: defineRoute({
    method: 'POST',
    path: '/v1/workspaces/{workspace_id}/webhook-deliveries/{delivery_id}/retry',
    handler: 'webhooks/retry-webhook-delivery',
    tag: 'Webhooks',
    summary: 'Starts a failed delivery again: attempt numbering continues and the webhook-id stays.',
    auth: 'session',
    params: WebhookDeliveryParams,
    status: 200,
    response: z.object({ delivery: WebhookDelivery }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
};
