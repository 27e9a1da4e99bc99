import { requireMember } from '../../shared/auth/workspace-access.js';
import { checkMemberChange } from '../../shared/domain/members.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentMember } from '../../shared/http/present/identity.js';
import { changeMemberRole } from '../../shared/store/members.js';
import { revokeOAuthGrantsApprovedBy } from '../../shared/store/oauth.js';
import { getMembership } from '../../shared/store/workspaces.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.changeMemberRole, async ({ params, body, auth, now }) => {
  const [caller, target] = await Promise.all([
    requireMember(auth.principal, params.workspace_id),
    getMembership(params.workspace_id, params.user_id),
  ]);
  if (!target) throw notFound('Member');
  checkMemberChange(caller, target, 'change_role');
  const member = await changeMemberRole(target, body.role, caller);
  // A member may not approve apps: those they connected stop (before the answer: at the next request).
  if (member.role === 'member')
    await revokeOAuthGrantsApprovedBy(params.workspace_id, params.user_id, now.toISOString());
  return { member: presentMember(member) };
});
