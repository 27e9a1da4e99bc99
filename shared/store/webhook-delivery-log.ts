/**
 * Reading the delivery log of a workspace from its indexes: the activity index (gsi1, by
 * updated_at) for the log and its filters, and an endpoint's failed deliveries (gsi2) for the
 * failed-by-endpoint filter and recovery. Never a Scan: a time range is a key condition, and the
 * other filters read at most a page plus a bounded margin of the index, so a filtered page can
 * be short (even empty) while `next_cursor` still leads on.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryFilter, DeliveryRecord } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { recordOf } from './items.js';
import { keys } from './keys.js';
import { decodeCursor, encodeCursor, queryAll, type Page, type PageRequest } from './pagination.js';

/** A filtered page reads at most this many times `limit` index entries. */
const FILTER_READ_FACTOR = 2;

type Item = Record<string, unknown>;

interface IndexChoice {
  index: 'gsi1' | 'gsi2';
  pkAttribute: string;
  skAttribute: string;
  partition: string;
  /** Filters the key does not already answer. */
  residual: Pick<DeliveryFilter, 'status' | 'event_type' | 'webhook_endpoint_id'>;
}

function chooseIndex(workspaceId: string, filter: DeliveryFilter): IndexChoice {
  if (filter.status === 'failed' && filter.webhook_endpoint_id) {
    // Exact: only this endpoint's failed deliveries are in that partition.
    return {
      index: 'gsi2',
      pkAttribute: 'gsi2pk',
      skAttribute: 'gsi2sk',
      partition: keys.endpointFailedDeliveries(filter.webhook_endpoint_id),
      residual: { event_type: filter.event_type },
    };
  }
  return {
    index: 'gsi1',
    pkAttribute: 'gsi1pk',
    skAttribute: 'gsi1sk',
    partition: keys.workspaceWebhookDeliveries(workspaceId),
    residual: { status: filter.status, event_type: filter.event_type, webhook_endpoint_id: filter.webhook_endpoint_id },
  };
}

/**
 * `<updated>#<id>` bounds of the window [since, until): `<since>` sorts before every key at that
 * instant and `<until>` before every key at its own, so BETWEEN takes since in and leaves until out.
 */
const rangeOf = (filter: Pick<DeliveryFilter, 'since' | 'until'>) => ({
  from: filter.since ?? '0',
  to: filter.until ?? '9999',
});

function residualExpression(residual: IndexChoice['residual']) {
  const entries = Object.entries(residual).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return {};
  return {
    FilterExpression: entries.map((_, i) => `#r${i} = :r${i}`).join(' AND '),
    names: Object.fromEntries(entries.map(([name], i) => [`#r${i}`, name])),
    values: Object.fromEntries(entries.map(([, value], i) => [`:r${i}`, value])),
  };
}

/** One page of the workspace's deliveries, most recently updated first. */
export async function listDeliveries(
  workspaceId: string,
  filter: DeliveryFilter,
  page: PageRequest,
): Promise<Page<DeliveryRecord>> {
  const choice = chooseIndex(workspaceId, filter);
  const { from, to } = rangeOf(filter);
  const residual = residualExpression(choice.residual);
  const filtered = residual.FilterExpression !== undefined;
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: choice.index,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ...(filtered ? { FilterExpression: residual.FilterExpression } : {}),
      ExpressionAttributeNames: { '#pk': choice.pkAttribute, '#sk': choice.skAttribute, ...residual.names },
      ExpressionAttributeValues: { ':pk': choice.partition, ':from': from, ':to': to, ...residual.values },
      ScanIndexForward: false,
      Limit: filtered ? page.limit * FILTER_READ_FACTOR : page.limit,
      ExclusiveStartKey: page.cursor
        ? decodeCursor(page.cursor, { [choice.pkAttribute]: choice.partition })
        : undefined,
    }),
  );
  const items = result.Items ?? [];
  // More matches than the page holds: the page ends at its last item, and so does the cursor.
  const kept = items.slice(0, page.limit);
  const last = items.length > page.limit ? positionOf(kept[kept.length - 1]!, choice) : result.LastEvaluatedKey;
  return {
    items: kept.map((item) => recordOf(entities.webhookDelivery, item)),
    next_cursor: last ? encodeCursor(last) : null,
  };
}

const positionOf = (item: Item, choice: IndexChoice): Item => ({
  pk: item.pk,
  sk: item.sk,
  [choice.pkAttribute]: item[choice.pkAttribute],
  [choice.skAttribute]: item[choice.skAttribute],
});

/** An endpoint's failed deliveries updated in `[since, until)`, oldest first, at most `limit`. */
export async function listFailedDeliveries(
  endpointId: string,
  since: string,
  until: string,
  limit: number,
): Promise<DeliveryRecord[]> {
  const { from, to } = rangeOf({ since, until });
  const items = await queryAll(
    {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.endpointFailedDeliveries(endpointId), ':from': from, ':to': to },
      Limit: 500,
    },
    { max: limit },
  );
  return items.map((item) => recordOf(entities.webhookDelivery, item));
}
