import type { GrantRecord } from '../domain/grants.js';
import { AppError, notFound } from '../errors.js';
import { getGrant } from '../store/grants.js';
import { getProfiles } from '../store/profiles.js';
import { getMembership } from '../store/workspaces.js';
import type { Principal } from './principal.js';

/**
 * The two sides of an access grant.
 * - Managed side: an owner/admin session of the managed profile's workspace, or an API key with
 *   the managed profile attached.
 * - Invited side: a session of a member (any role) of the manager profile's workspace, or an API
 *   key with the manager profile attached.
 * Grants never chain: acting through another grant does not make a caller either side.
 */
export async function isManagedSide(
  principal: Principal,
  managed: { id: string; workspace_id: string },
): Promise<boolean> {
  if (principal.kind === 'api_key') return principal.apiKey.profile_ids.includes(managed.id);
  const membership = await getMembership(managed.workspace_id, principal.userId);
  return membership !== undefined && membership.role !== 'member';
}

export async function isInvitedSide(
  principal: Principal,
  grant: Pick<GrantRecord, 'manager_profile_id' | 'manager_workspace_id'>,
): Promise<boolean> {
  if (principal.kind === 'api_key') return principal.apiKey.profile_ids.includes(grant.manager_profile_id);
  return (await getMembership(grant.manager_workspace_id, principal.userId)) !== undefined;
}

/** A grant with both profiles, and which sides the caller is on; 404 when on neither (do not reveal it). */
export async function grantForCaller(principal: Principal, grantId: string) {
  const grant = await getGrant(grantId, true);
  const profiles = grant ? await getProfiles([grant.profile_id, grant.manager_profile_id]) : undefined;
  const managed = grant && profiles?.get(grant.profile_id);
  const manager = grant && profiles?.get(grant.manager_profile_id);
  if (!grant || !managed || !manager) throw notFound('Access grant');
  const [managedSide, invitedSide] = await Promise.all([
    isManagedSide(principal, managed),
    isInvitedSide(principal, grant),
  ]);
  if (!managedSide && !invitedSide) throw notFound('Access grant');
  return { grant, managed, manager, managedSide, invitedSide };
}

export function requireSide(side: 'managed' | 'invited', allowed: boolean): void {
  if (allowed) return;
  throw new AppError('forbidden', {
    message:
      side === 'invited'
        ? 'Only the invited manager may answer this invitation.'
        : "Only the managed profile's side may do this.",
    hint:
      side === 'invited'
        ? "Use a session of the manager profile's workspace, or an API key with the manager profile attached."
        : "Use an owner/admin session of the managed profile's workspace, or an API key with the managed profile attached.",
  });
}
