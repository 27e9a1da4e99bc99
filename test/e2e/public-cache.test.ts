import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../support/api.js';
import { actor, ok, post, settledCount, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
let postId: string;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
  postId = (await post(alice, { body: 'read by many' })).post.id as string;
  ok(
    await call('POST', `/v1/posts/${postId}/comments`, {
      token: bob.key,
      profileId: bob.profile.id,
      body: { body: 'first' },
    }),
    201,
  );
});

/** A plain HTTP GET as a browser or a CDN sends it (a 304 has no body to parse). */
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${inject('baseUrl')}${path}`, { headers });
const asBob = () => ({ authorization: `Bearer ${bob.key}`, 'x-profile-id': bob.profile.id });

describe('public reads a cache can hold', () => {
  it("answer a post, a profile, its posts and a post's comments to anyone with Cache-Control public and a strong ETag; 304 on If-None-Match", async () => {
    for (const path of [
      `/v1/posts/${postId}`,
      `/v1/profiles/${alice.profile.id}`,
      `/v1/profiles/${alice.profile.id}/posts`,
      `/v1/posts/${postId}/comments`,
    ]) {
      const first = await get(path);
      expect(first.status, path).toBe(200);
      expect(first.headers.get('cache-control'), path).toMatch(/^public, max-age=[1-9]$/);
      expect(first.headers.get('vary'), path).toBe('Authorization');
      const tag = first.headers.get('etag');
      expect(tag, path).toMatch(/^"[^"]+"$/);
      await first.arrayBuffer();

      const again = await get(path, { 'if-none-match': tag! });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe('');
      expect(again.headers.get('etag'), path).toBe(tag);
      expect(again.headers.get('cache-control'), path).toBe(first.headers.get('cache-control'));

      // A credential's answer is its own: never cached, whatever it asks.
      const credentialed = await get(path, { ...asBob(), 'if-none-match': tag! });
      expect(credentialed.status, path).toBe(200);
      expect(credentialed.headers.get('cache-control'), path).toBe('no-store');
      expect(credentialed.headers.get('etag'), path).toBeNull();
      await credentialed.arrayBuffer();
    }
  });

  it('gives a changed answer a new ETag: an old one is answered in full', async () => {
    const path = `/v1/posts/${postId}`;
    const before = await get(path);
    const tag = before.headers.get('etag')!;
    await before.arrayBuffer();
    ok(
      await call('PUT', `/v1/posts/${postId}/reaction`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { reaction_type: 'like', active: true },
      }),
    );
    await settledCount('likes', async () => ok(await call('GET', path)).post.likes_count as number, 1);
    const after = await get(path, { 'if-none-match': tag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(((await after.json()) as { data: { post: { likes_count: number } } }).data.post.likes_count).toBe(1);
  });

  it('keeps no-store on errors and on the other reads', async () => {
    const missing = await get('/v1/posts/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    await missing.arrayBuffer();
    const followers = await get(`/v1/profiles/${alice.profile.id}/followers`);
    expect(followers.status).toBe(200);
    expect(followers.headers.get('cache-control')).toBe('no-store');
    await followers.arrayBuffer();
  });
});
