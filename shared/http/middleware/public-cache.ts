import { hash } from 'node:crypto';
import { PUBLIC_CACHE_MAX_AGE_SECONDS } from '../contract/route.js';
import type { ApiMiddleware } from './api-event.js';

/**
 * A strong validator of the exact body: the same answer, byte for byte, has the same tag. The
 * one-shot `hash` (no Hash object per response) is the cheaper call on every public read.
 */
const entityTag = (body: string) => `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;

/** RFC 9110 §13.1.2: If-None-Match compares weakly; `*` matches any current answer. */
function matches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === '*' || candidate === tag);
}

/**
 * The anonymous answer of a public read (a route with `publicCache`), which is the same for
 * everyone: any cache may keep it a few seconds (`Cache-Control: public, max-age`), with a strong
 * ETag; a request whose If-None-Match names it is answered 304 with no body. `Vary: Authorization`
 * keeps a shared cache from answering a credential with it. Everything else (a credential's
 * answer, an error) keeps the envelope's `no-store`.
 */
export const publicCache = (): ApiMiddleware => ({
  after: async (request) => {
    const { event, response } = request;
    if (!response || response.statusCode !== 200 || event.headers?.authorization) return;
    const tag = entityTag(typeof response.body === 'string' ? response.body : '');
    const caching = {
      'cache-control': `public, max-age=${PUBLIC_CACHE_MAX_AGE_SECONDS}`,
      etag: tag,
      vary: 'Authorization',
    };
    if (matches(event.headers?.['if-none-match'], tag)) {
      request.response = { statusCode: 304, headers: caching, body: '' };
      return;
    }
    response.headers = { ...response.headers, ...caching };
  },
});
