import { httpHandler } from '../../shared/http/handler.js';
import { deleteSession, endUserSessions } from '../../shared/store/sessions.js';
import { routes } from '../../shared/http/contract/routes/identity.js';

export const handler = httpHandler(routes.deleteSessions, async ({ auth }) => {
  const { session } = auth.principal;
  // This session by id as well: the index that finds the others may not list it yet.
  const [others] = await Promise.all([endUserSessions(session.user_id, session.id), deleteSession(session.id)]);
  return { logged_out: true as const, sessions_ended: others + 1 };
});
