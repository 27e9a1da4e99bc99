import type { ProfileRecord } from '../domain/entities.js';
import type { OutboxEvent } from '../domain/events.js';
import type { EndpointStatus, WebhookEndpointRecord, WebhookEvent } from '../domain/webhooks.js';
import { conditionOutcome } from './conditional.js';
import { entities } from './entities.js';
import { updateRequest, when } from './expressions.js';
import { batchGetItems, getItem, putItem, putTransactItem, recordOrUndefined } from './items.js';
import { entityTags, keys } from './keys.js';
import { outboxItem } from './outbox.js';
import { queryPath } from './paths.js';
import { transact, transactConditional, type TransactItem } from './transact.js';
import { sendUpdate } from './update.js';

export async function putEndpoint(endpoint: WebhookEndpointRecord): Promise<void> {
  await putItem(entities.webhookEndpoint, endpoint);
}

/**
 * The workspace's count of active endpoints moves in the same transaction as every change into or
 * out of `active`, so the cap holds under concurrent creates; with `cap`, the increment only
 * applies below it.
 */
function activeCountUpdate(workspaceId: string, delta: 1 | -1, cap?: number): TransactItem {
  return {
    Update: updateRequest({
      key: keys.webhookActiveEndpoints(workspaceId),
      set: { entity: entityTags.webhookActiveEndpoints },
      add: { active: delta },
      when: cap === undefined ? undefined : when.any(when.lacks('active'), when.compare('active', '<', cap)),
    }),
  };
}

export type CreateEndpointResult = 'created' | 'limit_reached';

/** A new active endpoint, if the workspace has fewer than `maxActive` active ones. */
export async function createEndpoint(
  endpoint: WebhookEndpointRecord,
  maxActive: number,
): Promise<CreateEndpointResult> {
  const outcome = await transactConditional([
    putTransactItem(entities.webhookEndpoint, endpoint),
    activeCountUpdate(endpoint.workspace_id, 1, maxActive),
  ]);
  if (outcome.ok) return 'created';
  if (outcome.failed[1]) return 'limit_reached';
  throw new Error('webhook endpoint id already in use');
}

export type StatusChange =
  { ok: true; endpoint: WebhookEndpointRecord } | { ok: false; reason: 'changed' | 'limit_reached' };

/**
 * `endpoint` (as just read) → status `to` with `changes`, only if neither its status nor its
 * `updated_at` moved meanwhile (a disable decided on the old URL must not hit a just-fixed one).
 * Keeps the active count (capped at `maxActive` when entering `active`) and writes `event` to the
 * outbox in the same transaction.
 */
export async function changeEndpointStatus(
  endpoint: WebhookEndpointRecord,
  to: EndpointStatus,
  changes: EndpointChanges & { updated_at: string },
  options: { maxActive?: number; event?: OutboxEvent } = {},
): Promise<StatusChange> {
  const items: TransactItem[] = [
    {
      Update: updateRequest({
        key: keys.webhookEndpoint(endpoint.id),
        set: { ...changes, status: to },
        when: [when.is('status', endpoint.status), when.is('updated_at', endpoint.updated_at)],
      }),
    },
  ];
  const entering = to === 'active' && endpoint.status !== 'active';
  const leaving = to !== 'active' && endpoint.status === 'active';
  if (entering) items.push(activeCountUpdate(endpoint.workspace_id, 1, options.maxActive));
  if (leaving) items.push(activeCountUpdate(endpoint.workspace_id, -1));
  if (options.event) items.push(outboxItem(options.event));
  const outcome = await transactConditional(items);
  if (outcome.ok) return { ok: true, endpoint: { ...endpoint, ...changes, status: to } };
  return { ok: false, reason: entering && outcome.failed[1] ? 'limit_reached' : 'changed' };
}

export function getEndpoint(id: string): Promise<WebhookEndpointRecord | undefined> {
  return getItem(entities.webhookEndpoint, keys.webhookEndpoint(id), { consistent: true });
}

/** Every endpoint of a workspace, oldest first: one key query (a workspace has few endpoints). */
export function listWorkspaceEndpoints(workspaceId: string): Promise<WebhookEndpointRecord[]> {
  return queryPath(entities.webhookEndpoint, 'byWorkspace', { workspace_id: workspaceId });
}

export type EndpointChanges = Partial<
  Pick<
    WebhookEndpointRecord,
    | 'name'
    | 'url'
    | 'event_types'
    | 'profile_ids'
    | 'rate_limit_per_second'
    | 'status'
    | 'secret'
    | 'previous_secret'
    | 'previous_secret_expires_at'
    | 'disabled_at'
    | 'disabled_reason'
    | 'revoked_at'
    | 'updated_at'
  >
>;

/**
 * Applies `changes` (not a status change: see changeEndpointStatus) only if the endpoint is still
 * in one of `fromStatuses` (so a concurrent revoke or disable wins cleanly). Returns the new record, or undefined when the condition failed.
 */
export async function updateEndpointIf(
  id: string,
  fromStatuses: readonly EndpointStatus[],
  changes: EndpointChanges,
): Promise<WebhookEndpointRecord | undefined> {
  const outcome = await conditionOutcome(
    sendUpdate({
      key: keys.webhookEndpoint(id),
      set: changes,
      when: [when.exists(), when.oneOf('status', fromStatuses)],
      returns: 'ALL_NEW',
    }),
  );
  return outcome.held ? recordOrUndefined(entities.webhookEndpoint, outcome.result.Attributes) : undefined;
}

/** Every profile of the workspace (the endpoint form's choices), oldest first. */
export function allWorkspaceProfiles(workspaceId: string): Promise<ProfileRecord[]> {
  return queryPath(entities.profile, 'byWorkspace', { workspace_id: workspaceId });
}

/** Endpoint names by id (deleted ones are absent), for delivery activity. */
export async function getEndpointNames(ids: readonly string[]): Promise<Map<string, string>> {
  const found = await batchGetItems(
    entities.webhookEndpoint,
    ids.map((id) => keys.webhookEndpoint(id)),
  );
  return new Map([...found.values()].map((endpoint) => [endpoint.id, endpoint.name]));
}

/** A webhook event of its own (`webhook.test`, an operational event), written to the outbox like any other event. */
export async function writeWebhookEvent(event: WebhookEvent): Promise<void> {
  await transact([outboxItem(event)]);
}
