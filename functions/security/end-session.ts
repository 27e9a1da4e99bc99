import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { endUserSession } from '../../shared/store/sessions.js';
import { routes } from '../../shared/http/contract/routes/security.js';

export const handler = httpHandler(routes.endSession, async ({ auth, params }) => {
  // Another user's session answers as a missing one: its id reveals nothing.
  if (!(await endUserSession(auth.principal.session.user_id, params.session_id))) throw notFound('Session');
  return { ended: true as const };
});
