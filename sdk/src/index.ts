/**
 * The social network API for programs: the types generated from the OpenAPI document, a typed
 * client, the error envelope as an exception, and webhook verification. See README.md.
 */
export { createClient, type ActingClient, type ActingPaths, type ApiClient, type ClientOptions } from './client.js';
export { ApiProblem, problemFrom, unwrap } from './problem.js';
export { events, type EventsOptions, type LiveEvent, type LiveEventType } from './events.js';
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './verify-webhook.js';
export type { Schemas, WebhookEvent, WebhookEventOf, WebhookEventType } from './schemas.js';
export type { components, operations, paths, webhooks } from './openapi-types.js';
