import { newId, nowIso } from '../../shared/domain/ids.js';
import { config } from '../../shared/config.js';
import { hashPassword, scryptCost } from '../../shared/domain/passwords.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { present } from '../../shared/http/present.js';
import { createUserWithWorkspace } from '../../shared/store/users.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.createUser, async ({ body }) => {
  const createdAt = nowIso();
  const user = { id: newId(), email: body.email, name: body.name, personal_workspace_id: newId(), created_at: createdAt };
  const workspace = { id: user.personal_workspace_id, name: `${body.name}'s workspace`, created_at: createdAt };
  await createUserWithWorkspace(user, await hashPassword(body.password, scryptCost(config.scryptLog2N)), workspace);
  return withHint(
    { user: present.user(user), workspace: present.workspace(workspace) },
    'Log in with POST /v1/sessions to get a session token.',
  );
});
