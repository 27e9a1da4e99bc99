/** Starts Swagger UI (served from /docs/assets, no CDN) on the OpenAPI document the API serves. */
declare const SwaggerUIBundle: (options: Record<string, unknown>) => unknown;

const apiBase = new URL('.', location.href).href.replace(/\/$/, '');
const documentUrl = `${apiBase}/v1/openapi.json`;

async function start(): Promise<void> {
  const response = await fetch(documentUrl);
  const spec = (await response.json()) as { servers?: { url: string; description?: string }[] };
  // "Try it out" should call the API that served this page, wherever it runs.
  spec.servers = [
    { url: apiBase, description: 'This server' },
    ...(spec.servers ?? []).filter((s) => s.url !== apiBase),
  ];
  SwaggerUIBundle({ spec, dom_id: '#reference', deepLinking: true });
}

start().catch(() => {
  document.getElementById('reference')!.textContent = `The OpenAPI document could not be loaded from ${documentUrl}.`;
});
