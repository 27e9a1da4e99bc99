import type { ProfileRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { conditionOutcome } from './conditional.js';
import { when } from './expressions.js';
import { entities } from './entities.js';
import { batchGet, keyId } from './batch.js';
import { batchGetItems, getItem, putTransactItem, recordOf, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { ReadBatch } from './read-batch.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import { transact, type TransactItem } from './transact.js';
import { sendUpdate } from './update.js';

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

/** The profile ids of usernames (any case), by lowercase username; unclaimed usernames are absent. */
export async function profileIdsOfUsernames(usernames: readonly string[]): Promise<Map<string, string>> {
  const lower = [...new Set(usernames.map((u) => u.toLowerCase()))];
  const found = await batchGet(lower.map((u) => keys.username(u)));
  return new Map(
    lower.flatMap((u) => {
      const item = found.get(keyId(keys.username(u)));
      return item ? [[u, recordOf(entities.username(u), item).profile_id] as const] : [];
    }),
  );
}

export type ProfileChanges = Partial<Pick<ProfileRecord, 'name' | 'call_name' | 'bio' | 'occupation' | 'location'>>;

export async function updateProfile(
  id: string,
  changes: ProfileChanges,
  updatedAt: string,
): Promise<ProfileRecord | undefined> {
  const outcome = await conditionOutcome(
    sendUpdate({
      key: keys.profile(id),
      set: { ...changes, updated_at: updatedAt },
      when: when.exists(),
      returns: 'ALL_NEW',
    }),
  );
  return outcome.held ? recordOrUndefined(entities.profile, outcome.result.Attributes) : undefined;
}

/** A workspace's profiles, oldest first. */
export function listWorkspaceProfiles(workspaceId: string, request: PageRequest): Promise<Page<ProfileRecord>> {
  return pathPage(entities.profile, 'byWorkspace', { workspace_id: workspaceId }, request);
}
