import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { notFound } from '../../shared/http/contract/errors.js';
import { defineRoute, PUBLIC_CACHE_MAX_AGE_SECONDS } from '../../shared/http/contract/route.js';
import { httpHandler } from '../../shared/http/handler.js';
import { localContext } from '../../infra/local/lambda-context.js';
import { apiEvent } from '../support/events.js';

const route = (publicCache: boolean) =>
  defineRoute({
    method: 'GET',
    path: '/test/{thing_id}',
    handler: 'test/read',
    tag: 'Test',
    summary: 'read',
    auth: 'none',
    params: z.strictObject({ thing_id: z.string() }),
    status: 200,
    response: z.unknown(),
    errors: ['not_found'],
    ...(publicCache ? { publicCache: true as const } : {}),
  });
let version = 1;
const read = ({ params }: { params: { thing_id: string } }) => {
  if (params.thing_id === 'missing') throw notFound('Thing');
  return { thing: params.thing_id, version };
};
const cached = httpHandler(route(true), read);
const uncached = httpHandler(route(false), read);

const get = (handler: typeof cached, id: string, headers: Record<string, string> = {}) =>
  handler(apiEvent({ method: 'GET', headers, pathParameters: { thing_id: id } }), localContext('test'));

describe('public reads a cache can hold (publicCache in the route table)', () => {
  it('answers without a credential with Cache-Control public, a strong ETag and Vary: Authorization', async () => {
    const answer = await get(cached, 'a');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers).toMatchObject({
      'cache-control': `public, max-age=${PUBLIC_CACHE_MAX_AGE_SECONDS}`,
      vary: 'Authorization',
    });
    expect(answer.headers?.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    // The same answer has the same tag; another answer another one.
    expect((await get(cached, 'a')).headers?.etag).toBe(answer.headers?.etag);
    expect((await get(cached, 'b')).headers?.etag).not.toBe(answer.headers?.etag);
    // The rate-limit headers are still on it.
    expect(answer.headers).toHaveProperty('ratelimit');
  });

  it('answers 304 with no body when If-None-Match names the current answer (weakly compared, or *)', async () => {
    const tag = String((await get(cached, 'a')).headers?.etag);
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const answer = await get(cached, 'a', { 'If-None-Match': ifNoneMatch });
      expect(answer.statusCode, ifNoneMatch).toBe(304);
      expect(answer.body, ifNoneMatch).toBe('');
      expect(answer.headers).toMatchObject({
        etag: tag,
        'cache-control': `public, max-age=${PUBLIC_CACHE_MAX_AGE_SECONDS}`,
      });
      expect(answer.headers).not.toHaveProperty('content-type');
    }
    version++;
    const changed = await get(cached, 'a', { 'if-none-match': tag });
    expect(changed.statusCode).toBe(200);
    expect(JSON.parse(changed.body!)).toMatchObject({ data: { version } });
    expect(changed.headers?.etag).not.toBe(tag);
  });

  it('keeps no-store on errors and on routes that do not say publicCache', async () => {
    const missing = await get(cached, 'missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers).toMatchObject({ 'cache-control': 'no-store' });
    expect(missing.headers).not.toHaveProperty('etag');
    const other = await get(uncached, 'a', { 'if-none-match': '*' });
    expect(other.statusCode).toBe(200);
    expect(other.headers).toMatchObject({ 'cache-control': 'no-store' });
    expect(other.headers).not.toHaveProperty('etag');
  });

  it('keeps no-store for a request that carries a credential (refused here: it is not one of ours)', async () => {
    const answer = await get(cached, 'a', { authorization: 'Bearer sk_nope', 'if-none-match': '*' });
    expect(answer.statusCode).toBe(401);
    expect(answer.headers).toMatchObject({ 'cache-control': 'no-store' });
  });
});
