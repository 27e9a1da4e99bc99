import { routes } from '../../shared/http/contract/routes/notifications.js';
import { httpHandler } from '../../shared/http/handler.js';
import { unreadCount } from '../../shared/store/notifications.js';

/** How many of the acting profile's notifications are unseen. */
export const handler = httpHandler(routes.getUnreadNotificationCount, async ({ auth, now }) => ({
  count: await unreadCount(auth.actingProfile.id, now),
}));
