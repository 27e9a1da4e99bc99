import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../../shared/domain/events.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/events.js';

const items = EVENT_TYPE_NAMES.map((type) => ({ type, description: EVENT_TYPES[type] }));

/** Public: the event types a webhook endpoint can select. */
export const handler = httpHandler(routes.listWebhookEventTypes, () => ({ items }));
