import type { ProfileRecord } from '../domain/entities.js';
import { listMemberships } from '../store/workspaces.js';
import { getProfiles, listWorkspaceProfiles } from '../store/profiles.js';
import type { Principal } from './principal.js';

/** How many profiles a missing-profile answer names at most. */
const LISTED = 25;

/**
 * The profiles a credential acts as directly, to name them when a call forgot which one: an API
 * key's attached profiles, a session's workspaces' profiles (the first few of each). Profiles
 * managed through access grants are not listed (they act as well; finding them costs a grant
 * lookup per profile).
 */
export async function actableProfiles(
  principal: Principal,
): Promise<Pick<ProfileRecord, 'id' | 'username' | 'type'>[]> {
  let profiles: ProfileRecord[];
  if (principal.kind === 'api_key') {
    const found = await getProfiles(principal.apiKey.profile_ids.slice(0, LISTED));
    profiles = principal.apiKey.profile_ids.flatMap((id) => found.get(id) ?? []);
  } else {
    const memberships = await listMemberships(principal.userId);
    const pages = await Promise.all(memberships.map((m) => listWorkspaceProfiles(m.workspace_id, { limit: LISTED })));
    profiles = pages.flatMap((page) => page.items).slice(0, LISTED);
  }
  return profiles.map(({ id, username, type }) => ({ id, username, type }));
}
