import { httpHandler } from '../../shared/http/handler.js';
import { presentMessage } from '../../shared/http/present/messages.js';
import { listConversation } from '../../shared/store/messages.js';
import { routes } from '../../shared/http/contract/routes/messages.js';

/** The conversation of the acting profile with `with_profile_id`, both directions, newest first. */
export const handler = httpHandler(routes.listMessages, async ({ query, auth }) => {
  const page = await listConversation(auth.actingProfile.id, query.with_profile_id, {
    limit: query.limit,
    cursor: query.cursor,
  });
  return { items: page.items.map(presentMessage), next_cursor: page.next_cursor };
});
