import type { components, webhooks } from './openapi-types.js';

/** The document's named schemas: `Schemas['Post']`, `Schemas['Profile']`, … */
export type Schemas = components['schemas'];

/** The webhook event types, as the document lists them under `webhooks`. */
export type WebhookEventType = keyof webhooks;

/**
 * A webhook request's body, one member per event type, told apart by `type` (a discriminated
 * union: `switch (event.type)` narrows `data` to that type's resources).
 */
export type WebhookEvent = {
  [T in WebhookEventType]: NonNullable<webhooks[T]['post']>['requestBody']['content']['application/json'];
}[WebhookEventType];

/** The body of one event type: `WebhookEventOf<'post.mention'>['data']['post']` is a Post. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
