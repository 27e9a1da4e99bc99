import { httpHandler } from '../../shared/http/handler.js';
import { presentSessionInfo } from '../../shared/http/present/sessions.js';
import { listUserSessions } from '../../shared/store/sessions.js';
import { routes } from '../../shared/http/contract/routes/security.js';

export const handler = httpHandler(routes.listSessions, async ({ auth, now }) => {
  const { session } = auth.principal;
  const sessions = await listUserSessions(session.user_id, now);
  return { items: sessions.map((s) => presentSessionInfo(s, session.id)) };
});
