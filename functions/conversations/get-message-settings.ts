import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/conversations.js';
import { getMessageSettings } from '../../shared/store/message-settings.js';

export const handler = httpHandler(routes.getMessageSettings, async ({ auth }) => ({
  allow_messages_from: await getMessageSettings(auth.actingProfile.id),
}));
