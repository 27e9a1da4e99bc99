/** The events routes: method, path, auth, schemas and the errors each can answer with. */
import { defineRoute } from '../route.js';
import { NoParams } from '../schemas/common.js';
import { WebhookEventTypes } from '../schemas/events.js';

export const routes = {
  listWebhookEventTypes: defineRoute({
    method: 'GET',
    path: '/v1/webhook-event-types',
    handler: 'events/list-event-types',
    tag: 'Webhooks',
    summary:
      'The event types a webhook endpoint can subscribe to, with what causes each, the JSON Schema of its body and an example (public).',
    auth: 'none',
    params: NoParams,
    status: 200,
    response: WebhookEventTypes,
    errors: [],
    mcp: false,
  }),
};
