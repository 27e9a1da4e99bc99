import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { invalidCursor } from '../errors.js';
import { db, tableName } from './client.js';

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/**
 * Where a cursor may lead: the partition it must name, and the key attributes it holds (the
 * table's key, and the index's when the list reads one), all of them and no other.
 */
export interface CursorScope {
  partition: Record<string, string>;
  attributes: readonly string[];
}

/** A position this list handed out as `next_cursor`, checked whole; anything else is `invalid_request`. */
export function decodeCursor(cursor: string, scope: CursorScope): Record<string, string> {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key)) throw invalidCursor();
  const entries = Object.entries(key);
  if (entries.length !== scope.attributes.length) throw invalidCursor();
  if (entries.some(([attribute, value]) => !scope.attributes.includes(attribute) || typeof value !== 'string'))
    throw invalidCursor();
  // A cursor from another list (another partition) must not read that list.
  for (const [attribute, value] of Object.entries(scope.partition)) {
    if ((key as Record<string, unknown>)[attribute] !== value) throw invalidCursor();
  }
  return key as Record<string, string>;
}

/**
 * One page of a Query on a single partition. `scope` names the partition and the key attributes,
 * so a cursor cannot be replayed against another partition or another list.
 */
export async function queryPage<T>(
  input: Omit<QueryCommandInput, 'TableName' | 'Limit' | 'ExclusiveStartKey'>,
  scope: CursorScope,
  request: PageRequest,
  map: (item: Record<string, unknown>) => T,
): Promise<Page<T>> {
  const startKey = request.cursor ? decodeCursor(request.cursor, scope) : undefined;
  const result = await db()
    .send(new QueryCommand({ ...input, TableName: tableName(), Limit: request.limit, ExclusiveStartKey: startKey }))
    .catch((error: unknown) => {
      // A cursor of the right shape whose values DynamoDB still refuses.
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
