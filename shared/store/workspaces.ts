import type { MembershipRecord, WorkspaceRecord } from '../domain/entities.js';
import { AppError } from '../errors.js';
import { entities } from './entities.js';
import { conditionRequest, when } from './expressions.js';
import { getItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import { queryPath } from './paths.js';
import type { ReadBatch } from './read-batch.js';
import { transact, type TransactItem } from './transact.js';

export const workspaceItem = (workspace: WorkspaceRecord): TransactItem =>
  putTransactItem(entities.workspace, workspace);

export const membershipItem = (member: MembershipRecord): TransactItem => putTransactItem(entities.membership, member);

export async function createWorkspace(workspace: WorkspaceRecord, owner: MembershipRecord): Promise<void> {
  await transact([workspaceItem(workspace), membershipItem(owner)]);
}

export async function addMember(member: MembershipRecord): Promise<void> {
  await transact(
    [
      membershipItem(member),
      // The workspace must still exist when the membership is written.
      { ConditionCheck: { ...conditionRequest(when.exists()), Key: keys.workspace(member.workspace_id) } },
    ],
    (index) =>
      index === 0
        ? new AppError('invalid_state', {
            message: 'This user is already a member of the workspace.',
            hint: 'Nothing to do; members keep the role they were given.',
          })
        : new AppError('not_found', { message: 'Workspace not found.' }),
  );
}

/**
 * Strongly consistent: a removal or role change holds on the member's very next request. Through
 * the request's `reads` when given, in the BatchGetItem of the keys asked for in the same tick.
 */
export function getMembership(
  workspaceId: string,
  userId: string,
  reads?: ReadBatch,
): Promise<MembershipRecord | undefined> {
  return getItem(entities.membership, keys.membership(workspaceId, userId), { consistent: true, reads });
}

/** Every workspace of a user (a person belongs to few; no pagination). */
export function listMemberships(userId: string): Promise<MembershipRecord[]> {
  return queryPath(entities.membership, 'byUser', { user_id: userId });
}
