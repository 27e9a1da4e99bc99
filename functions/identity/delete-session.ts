import { httpHandler } from '../../shared/http/handler.js';
import { deleteSession } from '../../shared/store/sessions.js';
import { routes } from '../../shared/http/contract/routes/identity.js';

export const handler = httpHandler(routes.deleteSession, async ({ auth }) => {
  await deleteSession(auth.principal.session.id);
  return { logged_out: true as const };
});
