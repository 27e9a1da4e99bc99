import {
  BatchWriteCommand,
  DeleteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../domain/entities.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { getItem, putItem } from './items.js';
import { keys } from './keys.js';
import { queryAll } from './pagination.js';
import type { ReadBatch } from './read-batch.js';

type BatchWriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

export async function putSession(session: SessionRecord): Promise<void> {
  await putItem(entities.session, session, { ifAbsent: false });
}

/** Strongly consistent (the request's read batch always is): a session ended a moment ago must not authenticate the next request. */
export function getSession(id: string, reads?: ReadBatch): Promise<SessionRecord | undefined> {
  return getItem(entities.session, keys.session(id), { consistent: true, reads });
}

export async function deleteSession(id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.session(id) }));
}

/**
 * Ends every session of a user but `keep`, and returns how many it ended. The sessions are found
 * through the user's session index, which is eventually consistent: a session created in the
 * same instant may be missed, so callers delete the one they know by id themselves.
 */
export async function endUserSessions(userId: string, keep?: string): Promise<number> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.userSessions(userId) },
    ProjectionExpression: 'id',
  });
  const ids = items.map((item) => item.id as string).filter((id) => id !== keep);
  for (let i = 0; i < ids.length; i += 25) {
    let requests: BatchWriteRequest[] | undefined = ids
      .slice(i, i + 25)
      .map((id) => ({ DeleteRequest: { Key: keys.session(id) } }));
    while (requests && requests.length > 0) {
      const result: BatchWriteCommandOutput = await db().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }),
      );
      requests = result.UnprocessedItems?.[tableName()];
    }
  }
  return ids.length;
}
