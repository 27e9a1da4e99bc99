import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileRecord } from '../domain/entities.js';
import type { EndpointStatus, WebhookEndpointRecord, WebhookEvent, WebhookTotals } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { batchGetItems, getItem, putItem, recordOf, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { outboxItem } from './outbox.js';
import { queryAll } from './pagination.js';
import { listWorkspaceProfiles } from './profiles.js';
import { isConditionFailure, transact } from './transact.js';

export async function putEndpoint(endpoint: WebhookEndpointRecord): Promise<void> {
  await putItem(entities.webhookEndpoint, endpoint);
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
  Pick<WebhookEndpointRecord, 'name' | 'url' | 'event_types' | 'profile_ids' | 'status' | 'secret' | 'previous_secret' | 'previous_secret_expires_at' | 'disabled_at' | 'revoked_at' | 'updated_at'>
>;

/**
 * Applies `changes` only if the endpoint is still in one of `fromStatuses` (so a concurrent revoke
 * or disable wins cleanly). Returns the new record, or undefined when the condition failed.
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
        ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])) },
        ExpressionAttributeValues: { ...statusValues, ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOrUndefined(entities.webhookEndpoint, Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

const ZERO_TOTALS: WebhookTotals = { total: 0, succeeded: 0, failed: 0, pending: 0, delivering: 0 };

/** The workspace's delivery counters (kept in the same transaction as every status change): the sum of its shards. */
export async function getTotals(workspaceId: string): Promise<WebhookTotals> {
  const shards = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspace(workspaceId).pk, ':prefix': keys.webhookTotalsPrefix },
    ConsistentRead: true,
  });
  const totals = { ...ZERO_TOTALS };
  for (const shard of shards) {
    for (const counter of Object.keys(totals) as (keyof WebhookTotals)[]) totals[counter] += Number(shard[counter] ?? 0);
  }
  return totals;
}

/** Every profile of the workspace (the endpoint form's choices), following the index's pages. */
export async function allWorkspaceProfiles(workspaceId: string): Promise<ProfileRecord[]> {
  const profiles: ProfileRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listWorkspaceProfiles(workspaceId, { limit: 100, cursor });
    profiles.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return profiles;
}

/** Endpoint names by id (deleted ones are absent), for delivery activity. */
export async function getEndpointNames(ids: readonly string[]): Promise<Map<string, string>> {
  const found = await batchGetItems(entities.webhookEndpoint, ids.map((id) => keys.webhookEndpoint(id)));
  return new Map([...found.values()].map((endpoint) => [endpoint.id, endpoint.name]));
}

/** The `webhook.test` event, written to the outbox like any other event. */
export async function writeTestEvent(event: WebhookEvent): Promise<void> {
  await transact([outboxItem(event)]);
}
