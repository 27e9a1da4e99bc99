import { routes } from '../../shared/http/contract/routes/notifications.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentNotification } from '../../shared/http/present/notifications.js';
import { hydrateNotifications } from '../../shared/notifications/hydrate.js';
import { listNotifications } from '../../shared/store/notifications.js';

/** The acting profile's notifications, newest update first, with their posts, comments and actors. */
export const handler = httpHandler(routes.listNotifications, async ({ query, auth, now }) => {
  const page = await listNotifications(auth.actingProfile.id, { reasons: query.reasons }, query, now);
  const views = await hydrateNotifications(page.items);
  return { items: views.map(presentNotification), next_cursor: page.next_cursor };
});
