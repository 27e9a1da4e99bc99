import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../domain/entities.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { getItem, putItem } from './items.js';
import { keys } from './keys.js';
import type { ReadBatch } from './read-batch.js';

export async function putSession(session: SessionRecord): Promise<void> {
  await putItem(entities.session, session, { ifAbsent: false });
}

export function getSession(id: string, reads?: ReadBatch): Promise<SessionRecord | undefined> {
  return getItem(entities.session, keys.session(id), { reads });
}

export async function deleteSession(id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.session(id) }));
}
