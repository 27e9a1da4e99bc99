import { routes } from '../../shared/http/contract/routes/notifications.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentNotification } from '../../shared/http/present/notifications.js';
import { hydrateNotifications } from '../../shared/notifications/hydrate.js';
import { shownNotifications } from '../../shared/notifications/shown.js';
import { listNotifications } from '../../shared/store/notifications.js';

/**
 * The acting profile's notifications, newest update first, with their posts, comments and actors.
 * Its blocks and mutes apply as they stand now, also to what was written before them
 * (notifications/shown.ts): the page may then hold fewer than `limit`.
 */
export const handler = httpHandler(routes.listNotifications, async ({ query, auth, now, viewer }) => {
  const page = await listNotifications(auth.actingProfile.id, { reasons: query.reasons }, query, now);
  const views = await hydrateNotifications(shownNotifications(page.items, viewer));
  return { items: views.map(presentNotification), next_cursor: page.next_cursor };
});
