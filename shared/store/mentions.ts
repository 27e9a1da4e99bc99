import type { ProfileRecord } from '../domain/entities.js';
import { batchGet } from './batch.js';
import { keys } from './keys.js';
import { getProfiles } from './profiles.js';

/** The existing profiles among `usernames` (lowercase): one BatchGetItem of username items, one of profiles. */
export async function profilesByUsername(usernames: readonly string[]): Promise<ProfileRecord[]> {
  if (usernames.length === 0) return [];
  const claims = await batchGet(usernames.map((u) => keys.username(u)));
  const ids = [...claims.values()].map((item) => item.profile_id).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return [];
  return [...(await getProfiles(ids)).values()];
}
