/**
 * Every response of the API carries X-Request-Id (API.md "Accountable agents"), success or error,
 * on every route of the route table: each is called here as a caller without a credential or with
 * a made-up id would call it, and whatever it answers, the header is there, one id per request,
 * never the one the caller sent.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { routeList } from '../../shared/http/contract/route-table.js';

const SENT = 'chosen-by-the-caller';

describe('X-Request-Id', () => {
  it('is on every answer of every route of the route table, and is not the caller’s', async () => {
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const route of routeList) {
      const path = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
      const response = await fetch(`${inject('baseUrl')}${path}`, {
        method: route.method,
        headers: { 'x-request-id': SENT, ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(route.method === 'GET' ? {} : { body: '{}' }),
        redirect: 'manual',
      });
      await response.arrayBuffer();
      const id = response.headers.get('x-request-id');
      if (!id || id === SENT || seen.has(id)) missing.push(`${route.name} (${response.status}): ${id}`);
      if (id) seen.add(id);
    }
    expect(missing).toEqual([]);
    expect(seen.size).toBe(routeList.length);
  });

  it('is on the answers of no route (404, 405) and of the MCP endpoint too', async () => {
    for (const [method, path] of [
      ['GET', '/v1/no-such-route'],
      ['DELETE', '/v1/openapi.json'],
      ['POST', '/mcp'],
      ['GET', '/mcp'],
    ] as const) {
      const response = await fetch(`${inject('baseUrl')}${path}`, { method, headers: { 'x-request-id': SENT } });
      await response.arrayBuffer();
      expect(response.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('x-request-id'), `${method} ${path}`).toMatch(/^(?!chosen-by-the-caller$).+/);
    }
  });
});
