import { gunzipSync } from 'node:zlib';
import { describe, expect, it, inject } from 'vitest';

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${inject('baseUrl')}${path}`, { redirect: 'manual', ...init });

/** The asset URLs a page links to (relative to the page). */
const linkedAssets = (html: string) =>
  [...html.matchAll(/(?:src|href)="((?:console|docs)\/assets\/[^"]+)"/g)].map((m) => `/${m[1]}`);

describe('serving the console and the API reference', () => {
  it('serves /console as HTML that is never cached stale, with a strict content security policy', async () => {
    const response = await get('/console');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toContain('<div id="app"></div>');
    expect(linkedAssets(html)).toHaveLength(2);
  });

  it('serves the linked bundles for a year, gzipped when the browser accepts it', async () => {
    for (const page of ['/console', '/docs']) {
      const assets = linkedAssets(await (await get(page)).text());
      expect(assets.length, page).toBeGreaterThanOrEqual(2);
      for (const path of assets) {
        const plain = await get(path, { headers: { 'accept-encoding': 'identity' } });
        expect(plain.status, path).toBe(200);
        expect(plain.headers.get('cache-control'), path).toBe('public, max-age=31536000, immutable');
        expect(plain.headers.get('content-type'), path).toMatch(/^text\/(javascript|css); charset=utf-8$/);
        const body = Buffer.from(await plain.arrayBuffer());
        // Raw bytes: node's fetch would otherwise unzip on its own.
        const zipped = await new Promise<Buffer>((resolve, reject) => {
          void import('node:http').then(({ get: httpGet }) =>
            httpGet(`${inject('baseUrl')}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
              expect(res.headers['content-encoding'], path).toBe(body.length > 200 ? 'gzip' : undefined);
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve(Buffer.concat(chunks)));
            }).on('error', reject),
          );
        });
        expect(body.length > 200 ? gunzipSync(zipped).equals(body) : zipped.equals(body), path).toBe(true);
      }
    }
  });

  it('answers unknown console paths with a plain 404 that says where things are', async () => {
    for (const path of ['/console/nope', '/console/assets/console-OLD.js', '/docs/assets/x.css']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toContain('/console');
    }
  });

  it('redirects a trailing slash (relative links would break) and refuses writes', async () => {
    const slash = await get('/console/');
    expect(slash.status).toBe(308);
    expect(slash.headers.get('location')).toBe('/console');
    const post = await get('/docs', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('leaves everything else to the API: its envelope for unknown paths, and no console path in the OpenAPI document', async () => {
    const other = await get('/consoles');
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error_code: string }).error_code).toBe('route_not_found');
    const document = (await (await get('/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
    // Besides /v1, only the OAuth routes, whose paths their RFCs fix.
    const outside = Object.keys(document.paths).filter((path) => !path.startsWith('/v1/'));
    expect(outside.filter((path) => !/^\/(oauth|\.well-known)\//.test(path))).toEqual([]);
    expect(outside.length).toBeGreaterThan(0);
  });
});
