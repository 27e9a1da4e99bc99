import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/conversations.js';
import { hideConversation } from '../../shared/store/conversations.js';

/** Off the caller's lists until the next message; the other side's conversation is untouched. */
export const handler = httpHandler(routes.hideConversation, async ({ params, auth }) => {
  if (!(await hideConversation(auth.actingProfile.id, params.conversation_id))) throw notFound('Conversation');
  return { hidden: true as const };
});
