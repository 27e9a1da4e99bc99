/**
 * How the erasure reads: one page of one Query (a named path's, or a partition of the table's own
 * keys) from a cursor, so that each step of a chain reads one page and hands the next on. Never
 * a Scan: every read starts from a key the subjects name (docs/decisions.md "Erasure walks the
 * subjects' access paths").
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { queryAll } from './pagination.js';
import { TABLE } from './table.js';

type Item = Record<string, unknown>;
type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

/** Items read per page: a page's erasing stays well inside one consumer's run. */
export const WALK_PAGE_ITEMS = 100;

export interface WalkPage {
  items: Item[];
  /** Where the path's next page starts; absent when the path is walked. */
  cursor?: Record<string, unknown>;
}

/** One page of the Query from `cursor`. */
export async function walkPage(input: QueryInput, cursor: Record<string, unknown> | undefined): Promise<WalkPage> {
  const page = await db().send(
    new QueryCommand({ Limit: WALK_PAGE_ITEMS, ...input, TableName: tableName(), ExclusiveStartKey: cursor }),
  );
  return { items: page.Items ?? [], ...(page.LastEvaluatedKey ? { cursor: page.LastEvaluatedKey } : {}) };
}

/**
 * The Query of a whole partition of the table (a profile's own partition, its inbox, its event
 * log): strongly consistent, so the job sees its own deletes of the pages before.
 */
export const partitionQuery = (pk: string): QueryInput => ({
  KeyConditionExpression: '#pk = :pk',
  ExpressionAttributeNames: { '#pk': TABLE.partitionKey },
  ExpressionAttributeValues: { ':pk': pk },
  ConsistentRead: true,
});

/** Every item of a partition known to stay small (a delivery's attempts, a grant's tokens, a day's audit). */
export const partitionItems = (pk: string): Promise<Item[]> => queryAll(partitionQuery(pk));

/** The table key of an item. */
export const itemKeyOf = (item: Item) => ({
  pk: item[TABLE.partitionKey] as string,
  sk: item[TABLE.sortKey] as string,
});
