import { sessionUser } from '../../shared/auth/session-user.js';
import { newId, nowIso } from '../../shared/domain/ids.js';
import { httpHandler } from '../../shared/http/handler.js';
import { present } from '../../shared/http/present.js';
import { createWorkspace } from '../../shared/store/workspaces.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.createWorkspace, async ({ body, auth }) => {
  const user = await sessionUser(auth.principal);
  const workspace = { id: newId(), name: body.name, created_at: nowIso() };
  await createWorkspace(workspace, {
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    user_id: user.id,
    email: user.email,
    name: user.name,
    role: 'owner',
    created_at: workspace.created_at,
  });
  return { workspace: present.workspace(workspace) };
});
