import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { batchGetItems, getItem, putTransactItem, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { ReadBatch } from './read-batch.js';
import { indexPage, type Page, type PageRequest } from './pagination.js';
import { isConditionFailure, transact, type TransactItem } from './transact.js';

const usernameTaken = () =>
  new AppError('username_taken', { hint: 'Usernames are unique regardless of case; choose another username.' });

/** Creates the profile and claims its username atomically; `extra` joins the same transaction. */
export async function createProfile(profile: ProfileRecord, extra: TransactItem[] = []): Promise<void> {
  await transact(
    [
      putTransactItem(entities.username(profile.username), { profile_id: profile.id }),
      putTransactItem(entities.profile, profile),
      ...extra,
    ],
    (index) =>
      index === 0
        ? usernameTaken()
        : new AppError('invalid_state', { message: 'The profile could not be created.', hint: 'Retry the request.' }),
  );
}

export function getProfile(id: string, from?: ReadBatch | { consistent: boolean }): Promise<ProfileRecord | undefined> {
  return getItem(
    entities.profile,
    keys.profile(id),
    from instanceof ReadBatch ? { reads: from } : { consistent: from?.consistent ?? false },
  );
}

/** Profiles by id, in one BatchGetItem per 100 ids; missing ids are absent from the map. */
export async function getProfiles(ids: readonly string[]): Promise<Map<string, ProfileRecord>> {
  const found = await batchGetItems(
    entities.profile,
    ids.map((id) => keys.profile(id)),
  );
  return new Map([...found.values()].map((p) => [p.id, p]));
}

export type ProfileChanges = Partial<Pick<ProfileRecord, 'name' | 'call_name' | 'bio' | 'occupation' | 'location'>>;

export async function updateProfile(
  id: string,
  changes: ProfileChanges,
  updatedAt: string,
): Promise<ProfileRecord | undefined> {
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
    return recordOrUndefined(entities.profile, Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** A workspace's profiles, oldest first. */
export function listWorkspaceProfiles(workspaceId: string, request: PageRequest): Promise<Page<ProfileRecord>> {
  return indexPage(entities.profile, 'gsi1', keys.workspaceProfiles(workspaceId), request, 'oldest_first');
}
