/**
 * What the webhook HTTP handlers share: lookups scoped to the workspace, checks whose errors carry
 * the API's hints (404/409/403/400), presentation. HTTP-side, so the delivery engine in
 * shared/webhooks knows nothing of it.
 */
import { config } from '../../shared/config.js';
import type { ProfileRecord } from '../../shared/domain/entities.js';
import type { EndpointStatus, WebhookEndpointRecord } from '../../shared/domain/webhooks.js';
import { AppError } from '../../shared/errors.js';
import { presentWebhooks } from '../../shared/http/present/webhooks.js';
import { normalizeUrl } from '../../shared/ports/outbound/url-policy.js';
import { getProfiles } from '../../shared/store/profiles.js';
import {
  changeEndpointStatus,
  getEndpoint,
  updateEndpointIf,
  type EndpointChanges,
} from '../../shared/store/webhook-endpoints.js';

export const endpointNotFound = () =>
  new AppError('not_found', {
    message: 'Webhook endpoint not found.',
    hint: 'Use an id from GET /v1/workspaces/{workspace_id}/webhook-endpoints of this workspace.',
  });

export const endpointRevoked = () =>
  new AppError('invalid_state', {
    message: 'This webhook endpoint is revoked and cannot be changed.',
    hint: 'Revocation is permanent; create a new endpoint with POST /v1/workspaces/{workspace_id}/webhook-endpoints.',
  });

/** The endpoint if it belongs to the workspace; other workspaces' endpoints read as 404. */
export async function loadEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await getEndpoint(id);
  if (!endpoint || endpoint.workspace_id !== workspaceId) throw endpointNotFound();
  return endpoint;
}

/**
 * A conditional change from the status just read; a concurrent status change (e.g. revoke) makes
 * it 409 rather than silently overwriting.
 */
export async function changeEndpoint(
  endpoint: WebhookEndpointRecord,
  from: readonly EndpointStatus[],
  changes: EndpointChanges,
): Promise<WebhookEndpointRecord> {
  const updated = await updateEndpointIf(endpoint.id, from, changes);
  if (updated) return updated;
  const now = await getEndpoint(endpoint.id);
  if (now?.status === 'revoked') throw endpointRevoked();
  throw new AppError('invalid_state', {
    message: 'The endpoint changed meanwhile.',
    hint: 'Read the endpoint again and retry.',
  });
}

/** The cap on active endpoints (WEBHOOK_MAX_ACTIVE_ENDPOINTS) is reached: 409, with the way out in the hint. */
export const activeEndpointLimit = () =>
  new AppError('invalid_state', {
    message: `This workspace already has ${config.webhookMaxActiveEndpoints} active webhook endpoints, the most it may have.`,
    hint: 'Revoke an endpoint you no longer need (DELETE .../webhook-endpoints/{webhook_endpoint_id}) or send several event types and profiles to one endpoint.',
  });

/**
 * A status change from the status just read (revoke, enable), keeping the active-endpoint count;
 * a concurrent change makes it 409 rather than silently overwriting.
 */
export async function changeStatus(
  endpoint: WebhookEndpointRecord,
  to: EndpointStatus,
  changes: EndpointChanges & { updated_at: string },
): Promise<WebhookEndpointRecord> {
  const changed = await changeEndpointStatus(endpoint, to, changes, { maxActive: config.webhookMaxActiveEndpoints });
  if (changed.ok) return changed.endpoint;
  if (changed.reason === 'limit_reached') throw activeEndpointLimit();
  const now = await getEndpoint(endpoint.id);
  if (now?.status === 'revoked') throw endpointRevoked();
  throw new AppError('invalid_state', {
    message: 'The endpoint changed meanwhile.',
    hint: 'Read the endpoint again and retry.',
  });
}

/** The URL to store (normalised), or 400 naming what the policy refused. */
export function allowedUrl(url: string): string {
  const check = normalizeUrl(url, config.webhookUrlPolicy);
  if (!check.ok)
    throw new AppError('invalid_request', { message: 'Invalid body.url.', hint: `body.url: ${check.reason}.` });
  return check.url.href;
}

/** Every id must be a profile of this workspace; unknown and foreign ids answer alike. */
export async function assertWorkspaceProfiles(
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, ProfileRecord>> {
  const profiles = await getProfiles(ids);
  const foreign = ids.filter((id) => profiles.get(id)?.workspace_id !== workspaceId);
  if (foreign.length > 0) {
    throw new AppError('forbidden', {
      message: 'Every profile_ids entry must be a profile of this workspace.',
      hint: `body.profile_ids: ${foreign.length} of the ids are not profiles of this workspace; available_profiles of GET .../webhook-endpoints lists them.`,
    });
  }
  return profiles;
}

export async function presentEndpoints(endpoints: readonly WebhookEndpointRecord[]) {
  const profiles = await getProfiles(endpoints.flatMap((e) => e.profile_ids));
  return endpoints.map((e) => presentWebhooks.endpoint(e, profiles));
}

export async function presentEndpoint(endpoint: WebhookEndpointRecord) {
  return (await presentEndpoints([endpoint]))[0]!;
}

export const endpointNotActive = () =>
  new AppError('invalid_state', {
    message: 'The endpoint is not active.',
    hint: 'A disabled endpoint can be re-enabled with POST .../webhook-endpoints/{webhook_endpoint_id}/enable; a revoked one cannot receive deliveries.',
  });

export const deliveryNotFound = () =>
  new AppError('not_found', {
    message: 'Webhook delivery not found.',
    hint: 'Use an id from GET /v1/workspaces/{workspace_id}/webhook-deliveries of this workspace.',
  });

export { getEndpointNames as endpointNames } from '../../shared/store/webhook-endpoints.js';
