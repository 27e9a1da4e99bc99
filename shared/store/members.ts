import type { MembershipRecord, WorkspaceRole } from '../domain/entities.js';
import { AppError, notFound } from '../errors.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { keys } from './keys.js';
import { transact, type TransactItem } from './transact.js';
import { getMembership } from './workspaces.js';

/** A transaction's check that the user is (still) an owner or admin of the workspace when it is written. */
export const stillManagesItem = (workspaceId: string, userId: string): TransactItem => ({
  ConditionCheck: {
    ...conditionRequest(when.oneOf('role', ['owner', 'admin'])),
    Key: keys.membership(workspaceId, userId),
  },
});

/** The caller must still be owner or admin when the change is written (unless acting on themselves). */
function callerStillManages(caller: MembershipRecord, target: MembershipRecord): TransactItem[] {
  return caller.user_id === target.user_id ? [] : [stillManagesItem(caller.workspace_id, caller.user_id)];
}

/** The member is there and is not the owner (whom no one removes or demotes). */
const notTheOwner = [when.exists(), when.compare('role', '<>', 'owner')];

const failure = (index: number) =>
  index === 0
    ? notFound('Member')
    : new AppError('forbidden', {
        message: 'Only workspace owners and admins may do this.',
        hint: 'Your role in this workspace changed; check it with GET /v1/me.',
      });

/** Deletes a membership that is not the owner's, in one transaction with the caller's role check. */
export async function removeMember(target: MembershipRecord, caller: MembershipRecord): Promise<void> {
  await transact(
    [
      { Delete: { ...conditionRequest(notTheOwner), Key: keys.membership(target.workspace_id, target.user_id) } },
      ...callerStillManages(caller, target),
    ],
    failure,
  );
}

/** Sets a non-owner member's role, in one transaction with the caller's role check; returns the member as stored. */
export async function changeMemberRole(
  target: MembershipRecord,
  role: Exclude<WorkspaceRole, 'owner'>,
  caller: MembershipRecord,
): Promise<MembershipRecord> {
  await transact(
    [
      {
        Update: updateRequest({
          key: keys.membership(target.workspace_id, target.user_id),
          set: { role },
          when: notTheOwner,
        }),
      },
      ...callerStillManages(caller, target),
    ],
    failure,
  );
  return (await getMembership(target.workspace_id, target.user_id)) ?? { ...target, role };
}
