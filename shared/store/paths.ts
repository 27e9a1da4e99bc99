/**
 * Queries by named access path: `queryPath(entities.profile, 'byWorkspace', { workspace_id })`.
 * The path's declaration (entities.ts) says which index and which partition; this module is the
 * one place that turns it into a Query (its IndexName and its key condition). Stores never name
 * an index.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { conditionExpression, Placeholders, type Conditions } from './expressions.js';
import { indexKeyOf, recordOf, type EntityLayout, type PathParams } from './items.js';
import { queryAll, queryPage, queryPages, type CursorScope, type Page, type PageRequest } from './pagination.js';
import { TABLE, type TableIndexName } from './table.js';

type Item = Record<string, unknown>;

/** The sort-key window of a query: below or after (exclusive), at most (inclusive), or between (inclusive). */
export type SortRange =
  { below: string } | { after: string } | { atMost: string } | { between: readonly [string, string] };

export interface PathQueryOptions<K extends string = string> {
  /** By the path's sort key; oldest (smallest) first unless told. */
  order?: 'oldest_first' | 'newest_first';
  range?: SortRange;
  /** Conditions on other attributes, applied after the read (a FilterExpression). */
  filter?: Conditions;
  /** Reads only these attributes (and the entity tag, so the items are still checked). */
  attributes?: readonly K[];
  /** A strongly consistent read: table paths only (an index is always eventually consistent). */
  consistent?: boolean;
  /** DynamoDB's page size (Limit). */
  pageSize?: number;
}

/** The compiled Query of a path: its input, the partition a cursor must name, and its key attributes. */
export interface PathQuery {
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;
  partition: Record<string, string>;
  partitionAttribute: string;
  sortAttribute: string;
}

/** The entity's records of its items (recordOf): a projected read is checked the same way, and is a part of a record. */
const readAs =
  <T>(layout: { entity: string }) =>
  (item: Item): T =>
    recordOf(layout as EntityLayout<T, unknown>, item);

/** The key condition on the sort key: a range, the path's sort prefix, or none (''). A range replaces the prefix. */
function sortCondition(attribute: string, within: SortRange | string | undefined, p: Placeholders): string {
  // Named only when used: DynamoDB refuses a request with a name its expressions do not use.
  if (within === undefined) return '';
  const name = p.name(attribute);
  if (typeof within === 'string') return `begins_with(${name}, ${p.value(within)})`;
  if ('below' in within) return `${name} < ${p.value(within.below)}`;
  if ('after' in within) return `${name} > ${p.value(within.after)}`;
  if ('atMost' in within) return `${name} <= ${p.value(within.atMost)}`;
  return `${name} BETWEEN ${p.value(within.between[0])} AND ${p.value(within.between[1])}`;
}

type PathsOf<L> = L extends { paths: infer Ps } ? Ps : never;
type RecordOf<L> = L extends EntityLayout<infer R, unknown> ? R : never;

/**
 * The Query of path `name` of `layout` for `params`: for callers that page it their own way (the
 * delivery log's filtered pages, the feed's sources). Everything else calls `queryPath`,
 * `queryPathItems`, `queryPathPages` or `pathPage`.
 */
export function pathQuery<L extends EntityLayout<never, object>, N extends keyof PathsOf<L> & string>(
  layout: L,
  name: N,
  params: PathParams<PathsOf<L>[N]>,
  options: PathQueryOptions = {},
): PathQuery {
  const path = (layout.paths as Record<string, unknown>)[name] as {
    index?: TableIndexName;
    partition: (params: unknown) => string;
    sortPrefix?: string;
  };
  const keyAttributes = path.index
    ? indexKeyOf(path.index)
    : { partitionKey: TABLE.partitionKey, sortKey: TABLE.sortKey };
  const partition = path.partition(params);
  const p = new Placeholders();
  const pk = `${p.name(keyAttributes.partitionKey)} = ${p.value(partition)}`;
  const sk = sortCondition(keyAttributes.sortKey, options.range ?? path.sortPrefix, p);
  const filter = conditionExpression(options.filter, p);
  const projection = options.attributes
    ? [...new Set([...options.attributes, 'entity'])].map((attribute) => p.name(attribute)).join(', ')
    : undefined;
  return {
    input: {
      ...(path.index ? { IndexName: path.index } : {}),
      KeyConditionExpression: sk ? `${pk} AND ${sk}` : pk,
      ...(filter ? { FilterExpression: filter } : {}),
      ...(projection ? { ProjectionExpression: projection } : {}),
      ...p.attributes(),
      ScanIndexForward: options.order !== 'newest_first',
      ...(options.consistent ? { ConsistentRead: true } : {}),
      ...(options.pageSize ? { Limit: options.pageSize } : {}),
    },
    partition: { [keyAttributes.partitionKey]: partition },
    partitionAttribute: keyAttributes.partitionKey,
    sortAttribute: keyAttributes.sortKey,
  };
}

/** The records on a path (the attributes asked for, when `attributes` is given). */
type PathRecord<L, K extends string> = string extends K ? RecordOf<L> : Pick<RecordOf<L>, K & keyof RecordOf<L>>;

/** Every record on the path's partition (at most `max`), following DynamoDB's pages: for partitions known to stay small. */
export async function queryPath<
  L extends EntityLayout<never, object>,
  N extends keyof PathsOf<L> & string,
  K extends keyof RecordOf<L> & string = string & keyof RecordOf<L>,
>(
  layout: L,
  name: N,
  params: PathParams<PathsOf<L>[N]>,
  options: PathQueryOptions<K> & { max?: number } = {},
): Promise<PathRecord<L, K>[]> {
  const items = await queryPathItems(layout, name, params, options);
  return items.map((item) => readAs<PathRecord<L, K>>(layout)(item));
}

/**
 * Every item on the path's partition (at most `max`), unread: for a partition that holds items of
 * more than one entity (a delivery and its attempts), which the caller tells apart.
 */
export function queryPathItems<L extends EntityLayout<never, object>, N extends keyof PathsOf<L> & string>(
  layout: L,
  name: N,
  params: PathParams<PathsOf<L>[N]>,
  options: PathQueryOptions & { max?: number } = {},
): Promise<Item[]> {
  const { input } = pathQuery(layout, name, params, options);
  return queryAll(input, options.max === undefined ? {} : { max: options.max });
}

/** The records on the path's partition page by page (DynamoDB's pages), for partitions of any size. */
export async function* queryPathPages<
  L extends EntityLayout<never, object>,
  N extends keyof PathsOf<L> & string,
  K extends keyof RecordOf<L> & string = string & keyof RecordOf<L>,
>(
  layout: L,
  name: N,
  params: PathParams<PathsOf<L>[N]>,
  options: PathQueryOptions<K> = {},
): AsyncGenerator<PathRecord<L, K>[]> {
  const { input } = pathQuery(layout, name, params, options);
  for await (const page of queryPages(input)) yield page.map((item) => readAs<PathRecord<L, K>>(layout)(item));
}

/**
 * One page of the path's partition for the API's lists (`limit`, an opaque cursor checked against
 * the partition), as records, or as `read` makes them of the items (a post with its author card).
 */
export function pathPage<L extends EntityLayout<never, object>, N extends keyof PathsOf<L> & string, T = RecordOf<L>>(
  layout: L,
  name: N,
  params: PathParams<PathsOf<L>[N]>,
  request: PageRequest,
  options: Omit<PathQueryOptions, 'pageSize'> & { read?: (item: Item) => T } = {},
): Promise<Page<T>> {
  const query = pathQuery(layout, name, params, options);
  const read = options.read ?? readAs<T>(layout);
  return queryPage(query.input, cursorScopeOf(query), request, read);
}

/** What a cursor of the path's lists holds: its partition, and the table's key with the index's. */
export const cursorScopeOf = (query: PathQuery): CursorScope => ({
  partition: query.partition,
  attributes: [...new Set([TABLE.partitionKey, TABLE.sortKey, query.partitionAttribute, query.sortAttribute])],
});
