import { routes } from '../../shared/http/contract/routes/notifications.js';
import { httpHandler } from '../../shared/http/handler.js';
import { setPreferences } from '../../shared/store/notifications.js';

/** Changes some of the acting profile's notification preferences; answers the whole map. */
export const handler = httpHandler(routes.setNotificationPreferences, async ({ body, auth }) =>
  setPreferences(auth.actingProfile.id, body),
);
