import type { ProfileRecord } from '../domain/entities.js';
import { ApiError } from '../http/errors.js';
import type { GrantPermission } from '../http/route.js';
import { getProfile } from '../store/profiles.js';
import type { Principal } from './principal.js';
import { canAccessWorkspace } from './workspace-access.js';

const notPermitted = (hint: string) => new ApiError('profile_not_permitted', { hint });

/**
 * Whether the principal may act as the profile: an API key with the profile attached, a session
 * of a member of the profile's workspace, or (see grants) a manager through an accepted grant
 * whose permissions include `permission`.
 */
export async function canActAs(principal: Principal, profile: ProfileRecord, _permission: GrantPermission | undefined): Promise<boolean> {
  if (principal.kind === 'api_key') return principal.apiKey.profile_ids.includes(profile.id);
  return canAccessWorkspace(principal, profile.workspace_id);
}

export async function resolveActingProfile(
  principal: Principal,
  profileId: string,
  permission: GrantPermission | undefined,
): Promise<ProfileRecord> {
  const profile = await getProfile(profileId);
  if (!profile || !(await canActAs(principal, profile, permission))) {
    throw notPermitted(
      principal.kind === 'api_key'
        ? 'Use a profile attached to this API key (see its profile_ids), or one it manages through an accepted access grant with the needed permission.'
        : 'Use a profile of a workspace you belong to, or one you manage through an accepted access grant with the needed permission.',
    );
  }
  return profile;
}
