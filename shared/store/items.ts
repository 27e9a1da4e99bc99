import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, type ItemKey } from './batch.js';
import { db, tableName } from './client.js';
import type { ReadBatch } from './read-batch.js';
import { LAYOUT_ATTRIBUTES, TABLE } from './table.js';
import type { TransactItem } from './transact.js';

type Item = Record<string, unknown>;
type IndexAttributes = Partial<Record<'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk', string>>;

/**
 * How one entity sits in the table: its `entity` tag, its key and index attributes, and its TTL.
 * Declared once per entity (see entities.ts); every write and read of that entity goes through it.
 */
export interface EntityLayout<R> {
  entity: string;
  key: (record: R) => ItemKey;
  indexes?: (record: R) => IndexAttributes;
  /** Epoch seconds after which DynamoDB may delete the item. */
  expiresAt?: (record: R) => number;
}

export const entityLayout = <R>(layout: EntityLayout<R>): EntityLayout<R> => layout;

/** The item of a record: key, index attributes, entity tag, the record, and TTL when the entity has one. */
export function itemOf<R extends object>(layout: EntityLayout<R>, record: R): Item {
  return {
    ...layout.key(record),
    ...layout.indexes?.(record),
    entity: layout.entity,
    ...record,
    ...(layout.expiresAt ? { [TABLE.ttlAttribute]: layout.expiresAt(record) } : {}),
  };
}

/**
 * The record of an item: checks the entity tag (a key naming another entity's item is a bug, not
 * a record) and drops the layout's attributes and the stream folds' watermarks.
 */
export function recordOf<R>(layout: EntityLayout<R>, item: Item): R {
  if (item.entity !== layout.entity) throw new Error(`Expected a ${layout.entity} item, found ${String(item.entity)}`);
  const record: Item = { ...item };
  for (const attribute of LAYOUT_ATTRIBUTES) delete record[attribute];
  for (const attribute of Object.keys(record))
    if (attribute.startsWith(TABLE.watermarkPrefix)) delete record[attribute];
  return record as R;
}

/** `recordOf` for an optional item (a Get or an update's Attributes). */
export const recordOrUndefined = <R>(layout: EntityLayout<R>, item: Item | undefined): R | undefined =>
  item ? recordOf(layout, item) : undefined;

/** One item's record; through the request's `reads` when given (joins its BatchGetItem, always consistent). */
export async function getItem<R>(
  layout: EntityLayout<R>,
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
  layout: EntityLayout<R>,
  record: R,
  options: { ifAbsent?: boolean } = {},
): Promise<void> {
  await db().send(new PutCommand(putRequest(layout, record, options.ifAbsent ?? true)));
}

/** The same put as one item of a TransactWriteItems. */
export function putTransactItem<R extends object>(
  layout: EntityLayout<R>,
  record: R,
  options: { ifAbsent?: boolean } = {},
): TransactItem {
  return { Put: putRequest(layout, record, options.ifAbsent ?? true) };
}

function putRequest<R extends object>(layout: EntityLayout<R>, record: R, ifAbsent: boolean) {
  return {
    TableName: tableName(),
    Item: itemOf(layout, record),
    ...(ifAbsent ? { ConditionExpression: `attribute_not_exists(${TABLE.partitionKey})` } : {}),
  };
}

/** Records by key (one BatchGetItem per 100 keys), as a map from `keyId(key)`; missing items are absent. */
export async function batchGetItems<R>(layout: EntityLayout<R>, itemKeys: readonly ItemKey[]): Promise<Map<string, R>> {
  const found = await batchGet(itemKeys);
  return new Map([...found].map(([id, item]) => [id, recordOf(layout, item)]));
}
