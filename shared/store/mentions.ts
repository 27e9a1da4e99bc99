import type { ProfileRecord } from '../domain/entities.js';
import { batchGet } from './batch.js';
import { entities } from './entities.js';
import { recordOf } from './items.js';
import { keys } from './keys.js';
import { getProfiles } from './profiles.js';

/** The existing profiles among `usernames` (lowercase): one BatchGetItem of username claims, one of profiles. */
export async function profilesByUsername(usernames: readonly string[]): Promise<ProfileRecord[]> {
  if (usernames.length === 0) return [];
  const claims = await batchGet(usernames.map((u) => keys.username(u)));
  // Reading needs no key: the claim's layout is only asked to check and strip the item.
  const ids = [...claims.values()].map((item) => recordOf(entities.username(''), item).profile_id);
  if (ids.length === 0) return [];
  return [...(await getProfiles(ids)).values()];
}
