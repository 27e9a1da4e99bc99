import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../domain/entities.js';
import { batchWrite } from './batch.js';
import { db, tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { conditionRequest, updateItem, when } from './expressions.js';
import { entities } from './entities.js';
import { getItem, putItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import { queryPath } from './paths.js';
import type { ReadBatch } from './read-batch.js';
import type { TransactItem } from './transact.js';

export async function putSession(session: SessionRecord): Promise<void> {
  await putItem(entities.session, session, { ifAbsent: false });
}

/** The same put as one item of a transaction (a log-in that spends a second-factor code with it). */
export const sessionTransactItem = (session: SessionRecord): TransactItem =>
  putTransactItem(entities.session, session, { ifAbsent: false });

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

/** The most sessions a list shows: every log-in makes one, and a person recognises theirs among the newest. */
export const SESSIONS_LISTED = 100;

/**
 * The user's live sessions, newest first (at most SESSIONS_LISTED). Read through the user's
 * session index, so one created a moment ago may be missing (eventually consistent).
 */
export function listUserSessions(userId: string, now: Date): Promise<SessionRecord[]> {
  return queryPath(
    entities.session,
    'byUser',
    { user_id: userId },
    { order: 'newest_first', filter: when.compare('expires_at', '>', now.toISOString()), max: SESSIONS_LISTED },
  );
}

/** Ends one session of the user's; false when there is none of that id that is theirs. */
export async function endUserSession(userId: string, id: string): Promise<boolean> {
  return conditionHeld(
    db().send(new DeleteCommand({ Key: keys.session(id), ...conditionRequest(when.is('user_id', userId)) })),
  );
}

/**
 * Moves `last_used_at` forward to `touched` while it is still before `staleBefore`: of the
 * requests that find it stale at once, one changes it (the others are refused), and a session
 * that ended meanwhile is not brought back.
 */
export async function touchSession(id: string, touched: string, staleBefore: string): Promise<void> {
  await conditionHeld(
    db().send(
      new UpdateCommand(
        updateItem({
          key: keys.session(id),
          set: { last_used_at: touched },
          when: [when.exists(), when.compare('last_used_at', '<=', staleBefore)],
        }),
      ),
    ),
  );
}
