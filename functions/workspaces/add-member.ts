import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { newMembership } from '../../shared/domain/entities.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentMember } from '../../shared/http/present/identity.js';
import { findCredential, getUser } from '../../shared/store/users.js';
import { addMember } from '../../shared/store/workspaces.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.addMember, async ({ params, body, auth, now }) => {
  const caller = await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const credential = await findCredential(body.email);
  const user = credential && (await getUser(credential.user_id));
  if (!user) {
    throw new ApiError('not_found', {
      message: 'No user has this email.',
      hint: 'The person must sign up with POST /v1/users first.',
    });
  }
  const member = newMembership(now, { id: params.workspace_id, name: caller.workspace_name }, user, body.role);
  await addMember(member);
  return { member: presentMember(member) };
});
