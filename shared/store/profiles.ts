import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { batchGet } from './batch.js';
import { db, tableName } from './client.js';
import { keys, timeSortKey } from './keys.js';
import { indexPage, type Page, type PageRequest } from './pagination.js';
import { stripKeys } from './records.js';
import { isConditionFailure, transact, type TransactItem } from './transact.js';

const usernameTaken = () =>
  new AppError('username_taken', { hint: 'Usernames are unique regardless of case; choose another username.' });

/** Creates the profile and claims its username atomically; `extra` joins the same transaction. */
export async function createProfile(profile: ProfileRecord, extra: TransactItem[] = []): Promise<void> {
  await transact(
    [
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.username(profile.username), entity: 'username', profile_id: profile.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...keys.profile(profile.id),
            gsi1pk: keys.workspaceProfiles(profile.workspace_id),
            gsi1sk: timeSortKey(profile.created_at, profile.id),
            entity: 'profile',
            ...profile,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...extra,
    ],
    (index) => (index === 0 ? usernameTaken() : new AppError('invalid_state', { message: 'The profile could not be created.', hint: 'Retry the request.' })),
  );
}

export async function getProfile(id: string): Promise<ProfileRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.profile(id) }));
  return stripKeys<ProfileRecord>(Item);
}

/** Profiles by id, in one BatchGetItem per 100 ids; missing ids are absent from the map. */
export async function getProfiles(ids: readonly string[]): Promise<Map<string, ProfileRecord>> {
  const found = await batchGet(ids.map((id) => keys.profile(id)));
  const profiles = [...found.values()].map((item) => stripKeys<ProfileRecord>(item)!);
  return new Map(profiles.map((p) => [p.id, p]));
}

export type ProfileChanges = Partial<Pick<ProfileRecord, 'name' | 'call_name' | 'bio' | 'occupation' | 'location'>>;

export async function updateProfile(id: string, changes: ProfileChanges, updatedAt: string): Promise<ProfileRecord | undefined> {
  const entries = Object.entries({ ...changes, updated_at: updatedAt }).filter(([, value]) => value !== undefined);
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.profile(id),
        UpdateExpression: 'SET ' + entries.map((_, i) => `#f${i} = :v${i}`).join(', '),
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([field], i) => [`#f${i}`, field])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return stripKeys<ProfileRecord>(Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

export function listWorkspaceProfiles(workspaceId: string, request: PageRequest): Promise<Page<ProfileRecord>> {
  return indexPage<ProfileRecord>('gsi1', keys.workspaceProfiles(workspaceId), request, 'oldest_first');
}
