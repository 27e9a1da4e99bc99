import { auditWorkspace } from '../audit/write-context.js';
import type { MembershipRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import type { ReadBatch } from '../store/read-batch.js';
import { getMembership } from '../store/workspaces.js';
import type { Principal } from './principal.js';

const notAMember = () =>
  new AppError('forbidden', {
    message: 'You are not a member of this workspace.',
    hint: 'Use a workspace id from GET /v1/me, or ask an owner or admin to add you.',
  });

/**
 * The caller's membership; 403 for non-members and for workspaces that do not exist alike. With the
 * request's `reads`, the membership joins the BatchGetItem of the other keys asked for in the same tick.
 */
export async function requireMember(
  principal: Principal | undefined,
  workspaceId: string,
  reads?: ReadBatch,
): Promise<MembershipRecord> {
  if (principal?.kind !== 'session') throw notAMember();
  const membership = await getMembership(workspaceId, principal.userId, reads);
  if (!membership) throw notAMember();
  return membership;
}

export async function requireOwnerOrAdmin(
  principal: Principal | undefined,
  workspaceId: string,
  reads?: ReadBatch,
): Promise<MembershipRecord> {
  const membership = await requireMember(principal, workspaceId, reads);
  if (membership.role === 'member') {
    throw new AppError('forbidden', {
      message: 'Only workspace owners and admins may do this.',
      hint: 'Ask an owner or admin of the workspace to do it, or to make you an admin.',
    });
  }
  auditWorkspace(workspaceId);
  return membership;
}

/** A session user who belongs to the workspace, or an API key of that workspace. */
export async function canAccessWorkspace(principal: Principal | undefined, workspaceId: string): Promise<boolean> {
  if (!principal) return false;
  if (principal.kind === 'api_key') return principal.workspaceId === workspaceId;
  return (await getMembership(workspaceId, principal.userId)) !== undefined;
}
