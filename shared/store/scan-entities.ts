/**
 * Every item of some entity kinds, page by page: a Scan, for rebuilding a derived store (the
 * search index) from the table. Never on a request path.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';

export async function* scanEntities(entities: readonly string[]): AsyncGenerator<Record<string, unknown>[]> {
  const values = Object.fromEntries(entities.map((entity, i) => [`:e${i}`, entity]));
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: `#entity IN (${Object.keys(values).join(', ')})`,
        ExpressionAttributeNames: { '#entity': 'entity' },
        ExpressionAttributeValues: values,
        ExclusiveStartKey: start,
      }),
    );
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}
