import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentConversation } from '../../shared/http/present/conversations.js';
import { routes } from '../../shared/http/contract/routes/conversations.js';
import { acceptConversation, conversationViews, getConversation } from '../../shared/store/conversations.js';
import { getProfile } from '../../shared/store/profiles.js';
import { conversationShown, refuseIfBlocked } from '../../shared/safety/checks.js';

/** From requests to the inbox; refused across a block, and a suspended side's conversation reads 404. */
export const handler = httpHandler(routes.acceptConversation, async ({ params, auth, viewer, reads }) => {
  const before = await getConversation(auth.actingProfile.id, params.conversation_id);
  if (!before) throw notFound('Conversation');
  refuseIfBlocked(viewer, before.other_profile_id);
  const other = await getProfile(before.other_profile_id, reads);
  if (!other || !conversationShown(viewer, other)) throw notFound('Conversation');
  const accepted = await acceptConversation(auth.actingProfile.id, params.conversation_id);
  const [view] = accepted ? await conversationViews([accepted]) : [];
  if (!view) throw notFound('Conversation');
  return { conversation: presentConversation(view.conversation, view.other, view.lastMessage) };
});
