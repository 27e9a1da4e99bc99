/**
 * A workspace's webhook endpoints as its owners and admins read and change them: lookups scoped to
 * the workspace (another workspace's endpoint reads as not found), and changes conditioned on the
 * endpoint as just read, so a concurrent change answers `invalid_state` rather than being overwritten.
 */
import { config } from '../config.js';
import type { ProfileRecord } from '../domain/entities.js';
import type { EndpointStatus, WebhookEndpointRecord } from '../domain/webhooks.js';
import { getProfiles } from '../store/profiles.js';
import { resetEndpointHealth } from '../store/webhook-endpoint-health.js';
import {
  changeEndpointStatus,
  getEndpoint,
  updateEndpointIf,
  type EndpointChanges,
} from '../store/webhook-endpoints.js';
import { activeEndpointLimit, endpointChangedMeanwhile, endpointNotFound, endpointRevoked } from './endpoint-errors.js';

/** The endpoint if it belongs to the workspace. */
export async function loadEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await getEndpoint(id);
  if (!endpoint || endpoint.workspace_id !== workspaceId) throw endpointNotFound();
  return endpoint;
}

/** A change of the endpoint's settings, if its status is still one of `from`. */
export async function changeEndpoint(
  endpoint: WebhookEndpointRecord,
  from: readonly EndpointStatus[],
  changes: EndpointChanges,
): Promise<WebhookEndpointRecord> {
  const updated = await updateEndpointIf(endpoint.id, from, changes);
  if (updated) return updated;
  return refused(endpoint);
}

/** A status change (revoke, enable) from the status just read, keeping the workspace's active-endpoint count. */
export async function changeStatus(
  endpoint: WebhookEndpointRecord,
  to: EndpointStatus,
  changes: EndpointChanges & { updated_at: string },
): Promise<WebhookEndpointRecord> {
  const changed = await changeEndpointStatus(endpoint, to, changes, { maxActive: config.webhookMaxActiveEndpoints });
  if (changed.ok) return changed.endpoint;
  if (changed.reason === 'limit_reached') throw activeEndpointLimit();
  return refused(endpoint);
}

/**
 * A fresh health record after a change (enabled again, a new URL): failures before it do not
 * count. Written after the change: an attempt on the old settings still in flight may start a
 * streak just before, as it could on the endpoint item.
 */
export const freshHealth = (endpoint: WebhookEndpointRecord): Promise<void> => resetEndpointHealth(endpoint.id);

/** Why a conditional change was refused: the endpoint was revoked meanwhile, or changed otherwise. */
async function refused(endpoint: WebhookEndpointRecord): Promise<never> {
  const now = await getEndpoint(endpoint.id);
  throw now?.status === 'revoked' ? endpointRevoked() : endpointChangedMeanwhile();
}

/** The profiles the endpoints selected (one BatchGetItem per 100), for presenting them. */
export const endpointProfiles = (endpoints: readonly WebhookEndpointRecord[]): Promise<Map<string, ProfileRecord>> =>
  getProfiles(endpoints.flatMap((e) => e.profile_ids));
