import type { ProfileRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { listMemberships } from '../store/workspaces.js';
import { getProfiles, listWorkspaceProfiles } from '../store/profiles.js';
import { resolvePrincipal } from './authenticate.js';

/** How many profiles a missing-profile answer names at most. */
const LISTED = 25;
/** Workspaces listed at once: a person may belong to many. */
const WORKSPACES_AT_ONCE = 8;

export type ActableProfile = Pick<ProfileRecord, 'id' | 'username' | 'type'>;

/**
 * The profiles the credential of an Authorization header acts as directly, to name them when a
 * call forgot which one: an API key's attached profiles, a session's workspaces' profiles (the
 * first few of each). Profiles managed through access grants are not listed (they act as well;
 * finding them costs a grant lookup per profile).
 */
export async function actableProfiles(authorization: string | undefined): Promise<ActableProfile[]> {
  const principal = await resolvePrincipal(authorization, new Date());
  if (!principal) throw new AppError('unauthorized');
  let profiles: ProfileRecord[];
  if (principal.kind === 'api_key') {
    const ids = principal.apiKey.profile_ids.slice(0, LISTED);
    const found = await getProfiles(ids);
    profiles = ids.flatMap((id) => found.get(id) ?? []);
  } else {
    const memberships = await listMemberships(principal.userId);
    const pages = await mapLimit(memberships, WORKSPACES_AT_ONCE, (m) =>
      listWorkspaceProfiles(m.workspace_id, { limit: LISTED }),
    );
    profiles = pages.flatMap((page) => page.items).slice(0, LISTED);
  }
  return profiles.map(({ id, username, type }) => ({ id, username, type }));
}
