import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/store/client.js';

export interface StoredEvent {
  id: string;
  type: string;
  profile_id: string;
  workspace_id: string;
  created_at: string;
  data: Record<string, any>;
}

/**
 * Test-only: the outbox event items addressed to any of `profileIds` (read back from DynamoDB
 * Local; a Scan is fine here, never on a request path).
 */
export async function eventsFor(profileIds: readonly string[]): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  const values = Object.fromEntries(profileIds.map((id, i) => [`:p${i}`, id]));
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: `entity = :event AND profile_id IN (${Object.keys(values).join(', ')})`,
        ExpressionAttributeValues: { ':event': 'event', ...values },
        ExclusiveStartKey: start,
      }),
    );
    events.push(...((page.Items ?? []) as StoredEvent[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return events.sort((a, b) => a.created_at.localeCompare(b.created_at));
}
