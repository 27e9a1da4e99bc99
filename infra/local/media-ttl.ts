import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { epochNow } from '../../shared/store/epoch.js';
import { mediaIdOfKey } from '../../shared/store/media.js';
import { conditionHeld } from '../../shared/store/conditional.js';
import { conditionRequest, when } from '../../shared/store/expressions.js';
import { TABLE } from '../../shared/store/table.js';

/**
 * What DynamoDB's TTL does, for a DynamoDB without it (DynamoDB Local, in the local runtime):
 * deletes every media item whose expiry has passed at `now`, each with a condition on that expiry
 * (an attachment meanwhile wins), so each deletion reaches the stream as the REMOVE that deletes
 * the files. A Scan, local only and off every request path (AWS has the TTL). Returns the ids deleted.
 */
export async function deleteExpiredMedia(now: Date): Promise<string[]> {
  const deleted: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(pk, :prefix) AND sk = :sk AND #expires <= :now',
        ExpressionAttributeNames: { '#expires': TABLE.ttlAttribute },
        ExpressionAttributeValues: {
          ':prefix': keys.media('').pk,
          ':sk': keys.media('').sk,
          ':now': epochNow(now),
        },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const key = { pk: item.pk as string, sk: item.sk as string };
      const expired = when.compare(TABLE.ttlAttribute, '<=', epochNow(now));
      if (await conditionHeld(db().send(new DeleteCommand({ Key: key, ...conditionRequest(expired) }))))
        deleted.push(mediaIdOfKey(key)!);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return deleted;
}
