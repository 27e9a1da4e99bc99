import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { invalidCursor } from '../errors.js';
import { db, tableName } from './client.js';
import { TABLE } from './table.js';

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/** The only attributes a cursor (a LastEvaluatedKey) can hold: the table's and the indexes' keys, all strings here. */
const KEY_ATTRIBUTES: ReadonlySet<string> = new Set([
  TABLE.partitionKey,
  TABLE.sortKey,
  ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
]);

export function decodeCursor(cursor: string, partition: Record<string, string>): Record<string, unknown> {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key)) throw invalidCursor();
  if (Object.entries(key).some(([attribute, value]) => !KEY_ATTRIBUTES.has(attribute) || typeof value !== 'string'))
    throw invalidCursor();
  // A cursor from another list (another partition) must not read that list.
  for (const [attribute, value] of Object.entries(partition)) {
    if ((key as Record<string, unknown>)[attribute] !== value) throw invalidCursor();
  }
  return key as Record<string, unknown>;
}

/**
 * One page of a Query on a single partition. `partition` names the partition key attribute and
 * value so a cursor cannot be replayed against another partition.
 */
export async function queryPage<T>(
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  partition: Record<string, string>,
  request: PageRequest,
  map: (item: Record<string, unknown>) => T,
): Promise<Page<T>> {
  const startKey = request.cursor ? decodeCursor(request.cursor, partition) : undefined;
  const result = await db()
    .send(new QueryCommand({ ...input, TableName: tableName(), Limit: request.limit, ExclusiveStartKey: startKey }))
    .catch((error: unknown) => {
      // A well-formed cursor DynamoDB still refuses (key attributes missing or of another index).
      if (startKey && error instanceof Error && error.name === 'ValidationException') throw invalidCursor();
      throw error;
    });
  const last = result.LastEvaluatedKey;
  return {
    items: (result.Items ?? []).map(map),
    next_cursor: last ? encodeCursor(last) : null,
  };
}

/** The opaque cursor of a position (an item key) in a list; `decodeCursor` reads it back. */
export const encodeCursor = (key: Record<string, unknown>): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/**
 * The items of a Query, page by page (DynamoDB's pages: `Limit` items or 1 MB), following
 * LastEvaluatedKey: the one loop over a query's pages. With `max`, no more than `max` items are
 * read, the last page's Limit cut to what is still wanted.
 */
export async function* queryPages(
  input: QueryInput,
  options: { max?: number } = {},
): AsyncGenerator<Record<string, unknown>[]> {
  let wanted = options.max ?? Infinity;
  let start: Record<string, unknown> | undefined;
  do {
    const limit = Math.min(input.Limit ?? Infinity, wanted);
    if (limit <= 0) return;
    const page = await db().send(
      new QueryCommand({
        ...input,
        TableName: tableName(),
        ExclusiveStartKey: start,
        ...(Number.isFinite(limit) ? { Limit: limit } : {}),
      }),
    );
    const items = page.Items ?? [];
    wanted -= items.length;
    yield items;
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every item of a Query (at most `max`), following its pages: for partitions known to stay small. */
export async function queryAll(input: QueryInput, options: { max?: number } = {}): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(input, options)) items.push(...page);
  return items;
}
