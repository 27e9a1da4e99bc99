import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/conversations.js';
import { setMessageSettings } from '../../shared/store/message-settings.js';

/** Applies to every later send to the acting profile (API.md "Message requests"). */
export const handler = httpHandler(routes.setMessageSettings, async ({ body, auth, now }) => {
  await setMessageSettings(auth.actingProfile.id, body.allow_messages_from, now.toISOString());
  return { allow_messages_from: body.allow_messages_from };
});
