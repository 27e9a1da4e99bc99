import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../domain/entities.js';
import { batchWrite } from './batch.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { getItem, putItem } from './items.js';
import { keys } from './keys.js';
import { queryPath } from './paths.js';
import type { ReadBatch } from './read-batch.js';

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
  const sessions = await queryPath(entities.session, 'byUser', { user_id: userId }, { attributes: ['id'] });
  const ids = sessions.map((s) => s.id).filter((id) => id !== keep);
  await batchWrite(ids.map((id) => ({ DeleteRequest: { Key: keys.session(id) } })));
  return ids.length;
}
