/**
 * Where the API reference (GET /docs, Swagger UI with deep links) shows an event type's body: its
 * operation in the OpenAPI `webhooks` section, whose operationId is `webhook_` + the type with its
 * first dot as `_` (shared/http/contract/openapi.ts; the browser test follows the link).
 */
export const eventSchemaHref = (eventType: string): string =>
  `${new URL('.', location.href).href.replace(/\/$/, '')}/docs#/webhooks/webhook_${eventType.replace('.', '_')}`;
