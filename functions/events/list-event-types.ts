import { httpHandler } from '../../shared/http/handler.js';
import { eventCatalogue } from '../../shared/http/contract/event-catalogue.js';
import { routes } from '../../shared/http/contract/routes/events.js';

const items = eventCatalogue();

/** Public: the event types a webhook endpoint can select, each with the JSON Schema of its body and an example. */
export const handler = httpHandler(routes.listWebhookEventTypes, () => ({ items }));
