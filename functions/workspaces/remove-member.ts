import { requireMember } from '../../shared/auth/workspace-access.js';
import { checkMemberChange } from '../../shared/domain/members.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { removeMember } from '../../shared/store/members.js';
import { revokeOAuthGrantsApprovedBy } from '../../shared/store/oauth.js';
import { getMembership } from '../../shared/store/workspaces.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.removeMember, async ({ params, auth, now }) => {
  const [caller, target] = await Promise.all([
    requireMember(auth.principal, params.workspace_id),
    getMembership(params.workspace_id, params.user_id),
  ]);
  if (!target) throw notFound('Member');
  checkMemberChange(caller, target, 'remove');
  await removeMember(target, caller);
  // The apps they connected to the workspace stop with them (before the answer: at the next request).
  await revokeOAuthGrantsApprovedBy(params.workspace_id, params.user_id, now.toISOString());
  return { removed: true as const };
});
