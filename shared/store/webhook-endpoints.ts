import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileRecord } from '../domain/entities.js';
import type { OutboxEvent } from '../domain/events.js';
import type { EndpointStatus, WebhookEndpointRecord, WebhookEvent } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { batchGetItems, getItem, putItem, putTransactItem, recordOf, recordOrUndefined } from './items.js';
import { entityTags, keys } from './keys.js';
import { outboxItem } from './outbox.js';
import { queryAll } from './pagination.js';
import { isConditionFailure, transact, transactConditional, type TransactItem } from './transact.js';

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
    Update: {
      TableName: tableName(),
      Key: keys.webhookActiveEndpoints(workspaceId),
      UpdateExpression: 'SET entity = :entity ADD active :delta',
      ...(cap === undefined ? {} : { ConditionExpression: 'attribute_not_exists(active) OR active < :cap' }),
      ExpressionAttributeValues: {
        ':entity': entityTags.webhookActiveEndpoints,
        ':delta': delta,
        ...(cap === undefined ? {} : { ':cap': cap }),
      },
    },
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
  const entries = Object.entries({ ...changes, status: to }).filter(([, value]) => value !== undefined);
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.webhookEndpoint(endpoint.id),
        UpdateExpression: 'SET ' + entries.map((_, i) => `#f${i} = :v${i}`).join(', '),
        ConditionExpression: '#status = :from AND #updated = :seen',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#updated': 'updated_at',
          ...Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])),
        },
        ExpressionAttributeValues: {
          ':from': endpoint.status,
          ':seen': endpoint.updated_at,
          ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        },
      },
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

/** Starts the failure streak at `since` unless one is running (no write while it runs). */
export async function markEndpointFailing(id: string, since: string): Promise<void> {
  await updateHealth(id, since, 'attribute_not_exists(failing_since) OR failing_since = :none', { ':none': null });
}

/** Ends the streak that started at `since` (a success); a newer streak is left alone. */
export async function markEndpointHealthy(id: string, since: string): Promise<void> {
  await updateHealth(id, null, 'failing_since = :seen', { ':seen': since });
}

async function updateHealth(
  id: string,
  value: string | null,
  condition: string,
  values: Record<string, unknown>,
): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookEndpoint(id),
        UpdateExpression: 'SET failing_since = :value',
        ConditionExpression: `attribute_exists(pk) AND (${condition})`,
        ExpressionAttributeValues: { ':value': value, ...values },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export function getEndpoint(id: string): Promise<WebhookEndpointRecord | undefined> {
  return getItem(entities.webhookEndpoint, keys.webhookEndpoint(id), { consistent: true });
}

/** Every endpoint of a workspace, oldest first: one key query (a workspace has few endpoints). */
export async function listWorkspaceEndpoints(workspaceId: string): Promise<WebhookEndpointRecord[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.workspaceWebhookEndpoints(workspaceId) },
  });
  return items.map((item) => recordOf(entities.webhookEndpoint, item));
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
    | 'failing_since'
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
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const statusValues = Object.fromEntries(fromStatuses.map((s, i) => [`:s${i}`, s]));
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookEndpoint(id),
        UpdateExpression: 'SET ' + entries.map((_, i) => `#f${i} = :v${i}`).join(', '),
        ConditionExpression: `attribute_exists(pk) AND #status IN (${Object.keys(statusValues).join(', ')})`,
        ExpressionAttributeNames: {
          '#status': 'status',
          ...Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])),
        },
        ExpressionAttributeValues: {
          ...statusValues,
          ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOrUndefined(entities.webhookEndpoint, Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Every profile of the workspace (the endpoint form's choices), oldest first. */
export async function allWorkspaceProfiles(workspaceId: string): Promise<ProfileRecord[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.workspaceProfiles(workspaceId) },
  });
  return items.map((item) => recordOf(entities.profile, item));
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
