import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, type ItemKey } from './batch.js';
import { db, tableName } from './client.js';
import type { ReadBatch } from './read-batch.js';
import { LAYOUT_ATTRIBUTES, TABLE, type TableIndexName } from './table.js';
import type { TransactItem } from './transact.js';

type Item = Record<string, unknown>;

/**
 * A named access path on one of the table's indexes (table.ts): the partition a query names by
 * its parameters `P`, and where a record sits on it. The write side derives the record's index
 * attributes from the same declaration (`indexAttributes`), so a read and a write cannot disagree.
 */
export interface IndexPath<R, P> {
  index: TableIndexName;
  /** The index partition key of the path's partition named by `params`. */
  partition: (params: P) => string;
  /** The record's index sort key on the path; undefined while the record is not on it (a draft post). */
  sort: (record: R) => string | undefined;
  /**
   * The record's parameters of `partition` when they are not its own fields; undefined when the
   * record is not on the path. Without it, the record itself is the parameters.
   */
  params?: (record: R) => P | undefined;
}

/**
 * A named access path on the table's own keys: the items of one partition (all of it, or the
 * sort keys starting with `sortPrefix`). Written by the entity's `key`, so nothing to derive.
 */
export interface TablePath<P> {
  partition: (params: P) => string;
  sortPrefix?: string;
}

export type AccessPath<R, P> = IndexPath<R, P> | TablePath<P>;

/** The parameters a query of the path names it by. */
export type PathParams<A> = A extends { partition: (params: infer P) => string } ? P : never;

/**
 * What each declared path must be: an index path whose partition can be computed from the record
 * (its own fields, or `params`), or a table path. `RecordSide` gives the record-reading functions
 * their parameter type (and keeps `index` a literal) while the rest is checked.
 */
type RecordSide<R> = {
  index?: TableIndexName;
  sort?: (record: R) => string | undefined;
  params?: (record: R) => unknown;
};
type ValidPath<R, A> = A extends { index: string }
  ? A extends { params: unknown }
    ? IndexPath<R, PathParams<A>>
    : IndexPath<R, PathParams<A>> & { partition: (record: R) => string }
  : TablePath<PathParams<A>>;

export type ValidPaths<R, Ps> = { [N in keyof Ps]: RecordSide<R> & ValidPath<R, Ps[N]> };

/** No access paths. */
type NoPaths = Record<never, never>;

/**
 * How one entity sits in the table: its `entity` tag, its key, its named access paths, and its
 * TTL. Declared once per entity (see entities.ts); every write and read of that entity goes
 * through it.
 */
export interface EntityLayout<R, Ps = NoPaths> {
  entity: string;
  key: (record: R) => ItemKey;
  /** The entity's named access paths: queries call them by name (paths.ts), writes place records on them. */
  paths: Ps;
  /** Epoch seconds after which DynamoDB may delete the item. */
  expiresAt?: (record: R) => number;
}

/**
 * Declares an entity's layout: `entityLayout<Record>()({ entity, key, paths, expiresAt })`. Two
 * calls, so the record type is named and the paths' types (their names and parameters) are
 * inferred from the declaration.
 */
export const entityLayout =
  <R>() =>
  <Ps extends ValidPaths<R, Ps> = NoPaths>(layout: {
    entity: string;
    key: (record: R) => ItemKey;
    paths?: Ps & ValidPaths<R, Ps>;
    expiresAt?: (record: R) => number;
  }): EntityLayout<R, Ps> => ({ ...layout, paths: layout.paths ?? ({} as Ps) });

const isIndexPath = (path: unknown): path is IndexPath<unknown, unknown> =>
  typeof path === 'object' && path !== null && 'index' in path;

/** The key attributes of a table index. */
export const indexKeyOf = (index: TableIndexName) => TABLE.indexes.find((i) => i.name === index)!;

/**
 * The index attributes that place `record` on `paths` (an entity's; `record` holds at least what
 * they read). Two paths of one index placing the same record is a declaration error.
 */
export function pathAttributes<R>(paths: Record<string, unknown>, record: R): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [name, path] of Object.entries(paths)) {
    if (!isIndexPath(path)) continue;
    const sort = path.sort(record);
    const params = path.params ? path.params(record) : record;
    if (sort === undefined || params === undefined) continue;
    const { partitionKey, sortKey } = indexKeyOf(path.index);
    if (attributes[partitionKey] !== undefined)
      throw new Error(`Two access paths place one item on ${path.index} (the second: ${name})`);
    attributes[partitionKey] = path.partition(params);
    attributes[sortKey] = sort;
  }
  return attributes;
}

/** The index attributes of a record, from its entity's paths. */
export const indexAttributes = <R, Ps>(layout: EntityLayout<R, Ps>, record: R): Record<string, string> =>
  pathAttributes(layout.paths as Record<string, unknown>, record);

/**
 * An update's share of moving `record` on the entity's paths: SET the attributes of the paths it
 * is on, REMOVE those of the indexes its paths use that it is on none of.
 */
export function indexChanges<R, Ps>(
  layout: EntityLayout<R, Ps>,
  record: R,
): { set: Record<string, string>; remove: string[] } {
  const set = indexAttributes(layout, record);
  const used = new Set(
    Object.values(layout.paths as Record<string, unknown>).flatMap((path) => (isIndexPath(path) ? [path.index] : [])),
  );
  const remove = [...used]
    .map(indexKeyOf)
    .filter((index) => set[index.partitionKey] === undefined)
    .flatMap((index) => [index.partitionKey, index.sortKey]);
  return { set, remove };
}

/** The item of a record: key, index attributes, entity tag, the record, and TTL when the entity has one. */
export function itemOf<R extends object>(layout: EntityLayout<R, unknown>, record: R): Item {
  return {
    ...layout.key(record),
    ...indexAttributes(layout, record),
    entity: layout.entity,
    ...record,
    ...(layout.expiresAt ? { [TABLE.ttlAttribute]: layout.expiresAt(record) } : {}),
  };
}

/**
 * The record of an item: checks the entity tag (a key naming another entity's item is a bug, not
 * a record) and drops the layout's attributes and the stream folds' watermarks.
 */
export function recordOf<R>(layout: EntityLayout<R, unknown>, item: Item): R {
  if (item.entity !== layout.entity) throw new Error(`Expected a ${layout.entity} item, found ${String(item.entity)}`);
  // Copied field by field rather than copied whole and then deleted from: an object that loses
  // properties becomes a slow dictionary for every later read (presenters read every field).
  const record: Item = {};
  for (const attribute of Object.keys(item))
    if (!layoutAttributes.has(attribute) && !attribute.startsWith(TABLE.watermarkPrefix))
      record[attribute] = item[attribute];
  return record as R;
}

const layoutAttributes: ReadonlySet<string> = new Set(LAYOUT_ATTRIBUTES);

/** `recordOf` for an optional item (a Get or an update's Attributes). */
export const recordOrUndefined = <R>(layout: EntityLayout<R, unknown>, item: Item | undefined): R | undefined =>
  item ? recordOf(layout, item) : undefined;

/** One item's record; through the request's `reads` when given (joins its BatchGetItem, always consistent). */
export async function getItem<R>(
  layout: EntityLayout<R, unknown>,
  key: ItemKey,
  options: { consistent?: boolean; reads?: ReadBatch | undefined } = {},
): Promise<R | undefined> {
  if (options.reads) return recordOrUndefined(layout, await options.reads.get(key));
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: options.consistent }),
  );
  return recordOrUndefined(layout, Item);
}

/** Puts the record's item; `ifAbsent` (the default) refuses to overwrite an existing item. */
export async function putItem<R extends object>(
  layout: EntityLayout<R, unknown>,
  record: R,
  options: { ifAbsent?: boolean } = {},
): Promise<void> {
  await db().send(new PutCommand(putRequest(layout, record, options.ifAbsent ?? true)));
}

/** The same put as one item of a TransactWriteItems. */
export function putTransactItem<R extends object>(
  layout: EntityLayout<R, unknown>,
  record: R,
  options: { ifAbsent?: boolean } = {},
): TransactItem {
  return { Put: putRequest(layout, record, options.ifAbsent ?? true) };
}

function putRequest<R extends object>(layout: EntityLayout<R, unknown>, record: R, ifAbsent: boolean) {
  return {
    TableName: tableName(),
    Item: itemOf(layout, record),
    ...(ifAbsent ? { ConditionExpression: `attribute_not_exists(${TABLE.partitionKey})` } : {}),
  };
}

/** Records by key (one BatchGetItem per 100 keys), as a map from `keyId(key)`; missing items are absent. */
export async function batchGetItems<R>(
  layout: EntityLayout<R, unknown>,
  itemKeys: readonly ItemKey[],
): Promise<Map<string, R>> {
  const found = await batchGet(itemKeys);
  return new Map([...found].map(([id, item]) => [id, recordOf(layout, item)]));
}
