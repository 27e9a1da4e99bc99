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
});
