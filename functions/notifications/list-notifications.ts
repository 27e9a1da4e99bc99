import { routes } from '../../shared/http/contract/routes/notifications.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentNotification } from '../../shared/http/present/notifications.js';
import { hydrateNotifications, visibleToRecipient } from '../../shared/notifications/hydrate.js';
import { listNotifications } from '../../shared/store/notifications.js';

/**
 * The acting profile's notifications, newest update first, with their posts, comments and actors.
 * Its blocks and mutes apply as they stand now, also to what was written before them: a hidden
 * profile leaves the actors, and a notification with no other actor leaves the page (which may
 * then hold fewer than `limit`). A moderation notice has no actors and always stays.
 */
export const handler = httpHandler(routes.listNotifications, async ({ query, auth, now, viewer }) => {
  const page = await listNotifications(auth.actingProfile.id, { reasons: query.reasons }, query, now);
  const views = await hydrateNotifications(visibleToRecipient(page.items, viewer));
  return { items: views.map(presentNotification), next_cursor: page.next_cursor };
});
