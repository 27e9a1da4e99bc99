import { newMembership, newPersonalWorkspace, newUser } from '../../shared/domain/entities.js';
import { hashPassword } from '../../shared/domain/passwords.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { presentUser, presentWorkspace } from '../../shared/http/present/identity.js';
import { createUserWithWorkspace } from '../../shared/store/users.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.createUser, async ({ body, now }) => {
  const user = newUser(now, body);
  const workspace = newPersonalWorkspace(now, user);
  await createUserWithWorkspace(user, await hashPassword(body.password), workspace, newMembership(now, workspace, user, 'owner'));
  return withHint(
    { user: presentUser(user), workspace: presentWorkspace(workspace) },
    'Log in with POST /v1/sessions to get a session token.',
  );
});
