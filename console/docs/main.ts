/** Starts Swagger UI (served from /docs/assets, no CDN) on the OpenAPI document the API serves. */
declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

SwaggerUIBundle({
  url: new URL('v1/openapi.json', new URL('.', location.href)).href,
  dom_id: '#reference',
  deepLinking: true,
  // "Try it out" calls the same API; a session token goes in through Authorize.
  persistAuthorization: false,
  tryItOutEnabled: false,
});
