import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/conversations.js';
import { allConversations } from '../../shared/store/conversations.js';
import { getProfiles } from '../../shared/store/profiles.js';
import { conversationShown } from '../../shared/safety/checks.js';

/**
 * Summed from the listed conversations of both boxes (two Queries side by side, then their other
 * profiles in one BatchGetItem), so it counts exactly what the lists show (docs/decisions.md).
 */
export const handler = httpHandler(routes.getConversationUnreadCount, async ({ auth, viewer }) => {
  const [inbox, requests] = await Promise.all([
    allConversations(auth.actingProfile.id, 'inbox'),
    allConversations(auth.actingProfile.id, 'requests'),
  ]);
  const profiles = await getProfiles([...new Set([...inbox, ...requests].map((c) => c.other_profile_id))]);
  const shown = (c: { other_profile_id: string }) => {
    const other = profiles.get(c.other_profile_id);
    return other !== undefined && conversationShown(viewer, other);
  };
  return {
    count: inbox.filter(shown).reduce((sum, c) => sum + c.unread_count, 0),
    requests: requests.filter(shown).length,
  };
});
