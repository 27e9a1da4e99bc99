/**
 * Reading the delivery log of a workspace from its access paths: the activity (by updated_at) for
 * the log and its filters, and an endpoint's failed deliveries for the failed-by-endpoint filter
 * and recovery. Never a Scan: a time range is a key condition, and the
 * other filters read at most a page plus a bounded margin of the index, so a filtered page can
 * be short (even empty) while `next_cursor` still leads on.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryFilter, DeliveryRecord } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { when } from './expressions.js';
import { recordOf } from './items.js';
import { decodeCursor, encodeCursor, type Page, type PageRequest } from './pagination.js';
import { pathQuery, queryPath, type PathQuery } from './paths.js';
import { TABLE } from './table.js';

/** A filtered page reads at most this many times `limit` index entries. */
const FILTER_READ_FACTOR = 2;

type Item = Record<string, unknown>;

/** Filters the path's key does not already answer. */
type Residual = Pick<DeliveryFilter, 'status' | 'event_type' | 'webhook_endpoint_id'>;

/**
 * `<updated>#<id>` bounds of the window [since, until): `<since>` sorts before every key at that
 * instant and `<until>` before every key at its own, so BETWEEN takes since in and leaves until out.
 */
const rangeOf = (filter: Pick<DeliveryFilter, 'since' | 'until'>) =>
  ({ between: [filter.since ?? '0', filter.until ?? '9999'] }) as const;

const residualConditions = (residual: Residual) =>
  Object.entries(residual).flatMap(([attribute, value]) => (value === undefined ? [] : [when.is(attribute, value)]));

/** The query of a log page: an endpoint's failed deliveries when that is the filter (exact), else the activity. */
function logQuery(workspaceId: string, filter: DeliveryFilter): { query: PathQuery; filtered: boolean } {
  const failedOf = filter.status === 'failed' ? filter.webhook_endpoint_id : undefined;
  const residual = residualConditions(
    failedOf
      ? { event_type: filter.event_type }
      : { status: filter.status, event_type: filter.event_type, webhook_endpoint_id: filter.webhook_endpoint_id },
  );
  const options = { order: 'newest_first', range: rangeOf(filter), filter: residual } as const;
  const query = failedOf
    ? pathQuery(entities.webhookDelivery, 'failedOf', { webhook_endpoint_id: failedOf }, options)
    : pathQuery(entities.webhookDelivery, 'activity', { workspace_id: workspaceId }, options);
  return { query, filtered: residual.length > 0 };
}

/** One page of the workspace's deliveries, most recently updated first. */
export async function listDeliveries(
  workspaceId: string,
  filter: DeliveryFilter,
  page: PageRequest,
): Promise<Page<DeliveryRecord>> {
  const { query, filtered } = logQuery(workspaceId, filter);
  const result = await db().send(
    new QueryCommand({
      ...query.input,
      TableName: tableName(),
      Limit: filtered ? page.limit * FILTER_READ_FACTOR : page.limit,
      ExclusiveStartKey: page.cursor ? decodeCursor(page.cursor, query.partition) : undefined,
    }),
  );
  const items = result.Items ?? [];
  // More matches than the page holds: the page ends at its last item, and so does the cursor.
  const kept = items.slice(0, page.limit);
  const last = items.length > page.limit ? positionOf(kept[kept.length - 1]!, query) : result.LastEvaluatedKey;
  return {
    items: kept.map((item) => recordOf(entities.webhookDelivery, item)),
    next_cursor: last ? encodeCursor(last) : null,
  };
}

/** An item's position on the index it was read from: the table's key and the index's. */
const positionOf = (item: Item, query: PathQuery): Item => ({
  [TABLE.partitionKey]: item[TABLE.partitionKey],
  [TABLE.sortKey]: item[TABLE.sortKey],
  [query.partitionAttribute]: item[query.partitionAttribute],
  [query.sortAttribute]: item[query.sortAttribute],
});

/** An endpoint's failed deliveries updated in `[since, until)`, oldest first, at most `limit`. */
export function listFailedDeliveries(
  endpointId: string,
  since: string,
  until: string,
  limit: number,
): Promise<DeliveryRecord[]> {
  return queryPath(
    entities.webhookDelivery,
    'failedOf',
    { webhook_endpoint_id: endpointId },
    { range: rangeOf({ since, until }), pageSize: 500, max: limit },
  );
}
