import { routes } from '../../shared/http/contract/routes/notifications.js';
import { httpHandler } from '../../shared/http/handler.js';
import { getPreferences } from '../../shared/store/notifications.js';

/** The acting profile's notification preferences, every reason `all` until changed. */
export const handler = httpHandler(routes.getNotificationPreferences, async ({ auth }) =>
  getPreferences(auth.actingProfile.id),
);
