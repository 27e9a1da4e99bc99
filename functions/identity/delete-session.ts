import { httpHandler } from '../../shared/http/handler.js';
import { deleteSession } from '../../shared/store/sessions.js';
import { routes } from './routes.js';

export const handler = httpHandler(routes.deleteSession, async ({ auth }) => {
  if (auth.principal?.kind === 'session') await deleteSession(auth.principal.session.id);
  return { logged_out: true as const };
});
