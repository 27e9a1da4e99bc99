import { auditWorkspace } from '../audit/write-context.js';
import type { ProfileRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import type { GrantPermissionName as GrantPermission } from '../domain/grants.js';
import { covers } from '../domain/grants.js';
import { isSuspended } from '../domain/reports.js';
import { grantAccessAll, grantAccessFor } from '../store/grants.js';
import { getProfile } from '../store/profiles.js';
import type { ReadBatch } from '../store/read-batch.js';
import type { Principal } from './principal.js';
import { canAccessWorkspace } from './workspace-access.js';

const notPermitted = (hint: string) => new AppError('profile_not_permitted', { hint });

/**
 * Whether the principal may act as the profile: an API key with the profile attached, a session
 * of a member of the profile's workspace, or (see grants) a manager through an accepted grant
 * whose permissions include `permission`.
 */
export async function canActAs(
  principal: Principal,
  profile: ProfileRecord,
  permission: GrantPermission | undefined,
): Promise<boolean> {
  if (await isOwnProfile(principal, profile)) return true;
  return actsThroughGrant(principal, profile.id, permission);
}

/**
 * Whether the profile is the principal's own, not one it manages through a grant: attached to
 * the API key (or the OAuth grant), or of a workspace the session's user belongs to.
 */
export async function isOwnProfile(
  principal: Principal,
  profile: Pick<ProfileRecord, 'id' | 'workspace_id'>,
): Promise<boolean> {
  if (principal.kind === 'api_key') return principal.apiKey.profile_ids.includes(profile.id);
  return canAccessWorkspace(principal, profile.workspace_id);
}

/**
 * An accepted grant over the profile whose manager the principal may act as directly and whose
 * permissions cover `permission` (any accepted grant when the operation names none, e.g. the
 * viewer of a public read). Grants do not chain: the manager must be directly the principal's.
 * API key: key lookups of (profile, attached profile) pairs. Session: the profile's accepted
 * grants (one Query of its small partition), then membership of each manager's workspace.
 */
async function actsThroughGrant(
  principal: Principal,
  profileId: string,
  permission: GrantPermission | undefined,
): Promise<boolean> {
  if (principal.kind === 'api_key') {
    const grants = await grantAccessFor(profileId, principal.apiKey.profile_ids);
    return grants.some((grant) => covers(grant.permissions, permission));
  }
  const grants = (await grantAccessAll(profileId)).filter((grant) => covers(grant.permissions, permission));
  for (const workspaceId of new Set(grants.map((grant) => grant.manager_workspace_id))) {
    if (await canAccessWorkspace(principal, workspaceId)) return true;
  }
  return false;
}

/**
 * For an operation whose grant permission depends on its input (a media's purpose): the acting
 * profile, already resolved without a permission, must also be actable with `permission`.
 */
export async function requireActingPermission(
  principal: Principal,
  profile: ProfileRecord,
  permission: GrantPermission,
): Promise<void> {
  if (!(await canActAs(principal, profile, permission)))
    throw notPermitted(`Acting through an access grant for this needs the ${permission} permission.`);
}

export async function resolveActingProfile(
  principal: Principal,
  profileId: string,
  permission: GrantPermission | undefined,
  reads?: ReadBatch,
): Promise<ProfileRecord> {
  const profile = await getProfile(profileId, reads);
  if (!profile || !(await canActAs(principal, profile, permission))) {
    throw notPermitted(
      principal.kind === 'api_key'
        ? 'Use a profile attached to this API key (see its profile_ids), or one it manages through an accepted access grant with the needed permission.'
        : 'Use a profile of a workspace you belong to, or one you manage through an accepted access grant with the needed permission.',
    );
  }
  if (isSuspended(profile))
    throw new AppError('profile_suspended', {
      hint: 'Moderation suspended this profile after reports; act as another profile of yours.',
    });
  auditWorkspace(profile.workspace_id);
  return profile;
}
