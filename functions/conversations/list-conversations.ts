import { httpHandler } from '../../shared/http/handler.js';
import { presentConversation } from '../../shared/http/present/conversations.js';
import { routes } from '../../shared/http/contract/routes/conversations.js';
import { conversationViews, listConversations } from '../../shared/store/conversations.js';
import { conversationShown } from '../../shared/safety/checks.js';

/**
 * One page of the box by last activity, then the other profiles and last messages in one
 * BatchGetItem; conversations across a block or with a suspended profile are left out, and one
 * with an erased profile reads its other side as deleted.
 */
export const handler = httpHandler(routes.listConversations, async ({ query, auth, viewer }) => {
  const page = await listConversations(auth.actingProfile.id, query.box, { limit: query.limit, cursor: query.cursor });
  const views = await conversationViews(page.items);
  return {
    items: views
      .filter((v) => v.other === undefined || conversationShown(viewer, v.other))
      .map((v) => presentConversation(v.conversation, v.other, v.lastMessage)),
    next_cursor: page.next_cursor,
  };
});
