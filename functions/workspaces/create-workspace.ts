import { sessionUser } from '../../shared/auth/session-user.js';
import { newMembership, newWorkspace } from '../../shared/domain/entities.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentWorkspace } from '../../shared/http/present/identity.js';
import { createWorkspace } from '../../shared/store/workspaces.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.createWorkspace, async ({ body, auth, now }) => {
  const user = await sessionUser(auth.principal);
  const workspace = newWorkspace(now, body.name);
  await createWorkspace(workspace, newMembership(now, workspace, user, 'owner'));
  return { workspace: presentWorkspace(workspace) };
});
