import type { components, webhooks } from './openapi-types.js';

/** The document's named schemas: `Schemas['Post']`, `Schemas['Profile']`, … */
export type Schemas = components['schemas'];

/** The webhook event types, as the document lists them under `webhooks`. */
export type WebhookEventType = keyof webhooks;

/** A webhook request's body, one member per event type, told apart by `type`. */
export type WebhookEvent = {
  [T in WebhookEventType]: NonNullable<webhooks[T]['post']>['requestBody']['content']['application/json'];
}[WebhookEventType];
