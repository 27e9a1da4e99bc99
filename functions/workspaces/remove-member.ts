import { requireMember } from '../../shared/auth/workspace-access.js';
import { checkMemberChange } from '../../shared/domain/members.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { removeMember } from '../../shared/store/members.js';
import { getMembership } from '../../shared/store/workspaces.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.removeMember, async ({ params, auth }) => {
  const [caller, target] = await Promise.all([
    requireMember(auth.principal, params.workspace_id),
    getMembership(params.workspace_id, params.user_id),
  ]);
  if (!target) throw notFound('Member');
  checkMemberChange(caller, target, 'remove');
  await removeMember(target, caller);
  return { removed: true as const };
});
