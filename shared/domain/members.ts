import { AppError } from '../errors.js';
import type { MembershipRecord } from './entities.js';

export type MemberChange = 'remove' | 'change_role';

/**
 * Who may remove a member or change their role: owners and admins, on anyone but the owner
 * (a workspace always keeps its one owner, and an admin cannot remove or demote them); any
 * member may remove themselves (leave), except the owner.
 */
export function checkMemberChange(caller: MembershipRecord, target: MembershipRecord, change: MemberChange): void {
  const self = caller.user_id === target.user_id;
  if (target.role === 'owner') {
    throw self
      ? new AppError('invalid_state', {
          message: 'A workspace always keeps its owner.',
          hint: 'The owner cannot leave or demote themselves; delete the workspace content or ask for an ownership transfer instead.',
        })
      : new AppError('forbidden', {
          message: 'The workspace owner cannot be removed or demoted.',
          hint: 'Only members and admins can be removed or given another role.',
        });
  }
  if (caller.role === 'member' && !(self && change === 'remove')) {
    throw new AppError('forbidden', {
      message: 'Only workspace owners and admins may do this.',
      hint: 'Ask an owner or admin of the workspace; a member may only remove themselves.',
    });
  }
}
