import { describe, expect, it } from 'vitest';
import { routeList } from '../../shared/http/contract/route-table.js';
import { routeMatcher } from '../../shared/http/route-match.js';

describe('route matching', () => {
  const match = routeMatcher([
    { method: 'GET', path: '/v1/profile-access/invitations/{grant_id}' },
    { method: 'POST', path: '/v1/profile-access/{grant_id}/resend' },
    { method: 'GET', path: '/v1/posts/{post_id}' },
    { method: 'PUT', path: '/v1/posts/{post_id}/reaction' },
  ] as const);

  it('extracts path parameters', () => {
    expect(match('GET', '/v1/posts/abc')).toMatchObject({ kind: 'found', params: { post_id: 'abc' } });
    expect(match('GET', '/v1/profile-access/invitations/g1')).toMatchObject({
      kind: 'found',
      params: { grant_id: 'g1' },
    });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(match('DELETE', '/v1/posts/abc')).toEqual({ kind: 'method_not_allowed', allowed: ['GET'] });
    expect(match('GET', '/v1/posts/abc/nope')).toEqual({ kind: 'not_found' });
    expect(match('GET', '/v1/posts/')).toEqual({ kind: 'not_found' });
  });

  it('keeps malformed percent-encoding for validation to refuse', () => {
    expect(match('GET', '/v1/posts/%E0%A4%A')).toMatchObject({ kind: 'found', params: { post_id: '%E0%A4%A' } });
  });

  it('the route table has no two routes with the same method and path', () => {
    const keys = routeList.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const handlers = routeList.map((r) => r.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
  });
});
