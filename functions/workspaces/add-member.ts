import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { nowIso } from '../../shared/domain/ids.js';
import { ApiError } from '../../shared/http/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { present } from '../../shared/http/present.js';
import { findCredential, getUser } from '../../shared/store/users.js';
import { addMember } from '../../shared/store/workspaces.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.addMember, async ({ params, body, auth }) => {
  const caller = await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const credential = await findCredential(body.email);
  const user = credential && (await getUser(credential.user_id));
  if (!user) {
    throw new ApiError('not_found', { message: 'No user has this email.', hint: 'The person must sign up with POST /v1/users first.' });
  }
  const member = {
    workspace_id: params.workspace_id,
    workspace_name: caller.workspace_name,
    user_id: user.id,
    email: user.email,
    name: user.name,
    role: body.role,
    created_at: nowIso(),
  };
  await addMember(member);
  return { member: present.member(member) };
});
