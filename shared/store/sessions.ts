import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SessionRecord } from '../domain/entities.js';
import { db, tableName } from './client.js';
import { keys } from './keys.js';
import { stripKeys } from './records.js';

export async function putSession(session: SessionRecord): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.session(session.id),
        entity: 'session',
        ...session,
        // DynamoDB's TTL removes it some time after expiry; reads still check expires_at.
        expires_at_epoch: Math.ceil(Date.parse(session.expires_at) / 1000),
      },
    }),
  );
}

export async function getSession(id: string): Promise<SessionRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.session(id) }));
  return stripKeys<SessionRecord>(Item);
}

export async function deleteSession(id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.session(id) }));
}
