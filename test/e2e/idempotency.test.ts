import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, unique, type CallOptions } from '../support/api.js';
import { actor, ok, post, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const withKey = (key: string, options: CallOptions): CallOptions => ({
  ...options,
  headers: { ...options.headers, 'idempotency-key': key },
});

describe('Idempotency-Key on the creates', () => {
  it('answers a retry of each create with its first response and creates once', async () => {
    const { post: target } = await post(bob, { body: 'target' });
    const creates: [string, string, CallOptions][] = [
      [
        'profiles',
        '/v1/profiles',
        { token: alice.session, body: { type: 'human', username: unique('idem'), name: 'Ida', call_name: 'Ida' } },
      ],
      ['posts', '/v1/posts', { token: alice.key, profileId: alice.profile.id, body: { body: 'once only' } }],
      [
        'comments',
        `/v1/posts/${target.id}/comments`,
        { token: alice.key, profileId: alice.profile.id, body: { body: 'once' } },
      ],
      [
        'messages',
        '/v1/messages',
        {
          token: alice.key,
          profileId: alice.profile.id,
          body: { recipient_profile_id: bob.profile.id, body: 'hi once' },
        },
      ],
      [
        'API keys',
        `/v1/workspaces/${alice.workspaceId}/api-keys`,
        { token: alice.session, body: { name: 'ci', scopes: ['posts:read'], profile_ids: [] } },
      ],
      [
        'webhook endpoints',
        `/v1/workspaces/${alice.workspaceId}/webhook-endpoints`,
        {
          token: alice.session,
          body: {
            name: 'hook',
            url: 'https://hooks.example.com/idem',
            event_types: ['post.mention'],
            profile_ids: [alice.profile.id],
          },
        },
      ],
    ];
    for (const [what, path, options] of creates) {
      const key = randomUUID();
      const first = await call('POST', path, withKey(key, options));
      expect(first.status, what).toBe(201);
      expect(first.headers.get('idempotent-replayed'), what).toBeNull();
      const again = await call('POST', path, withKey(key, options));
      expect(again.status, what).toBe(201);
      expect(again.body, what).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed'), what).toBe('true');
      expect(again.headers.get('ratelimit'), what).toMatch(/^"credential";r=\d+;t=\d+$/);
    }
    // One comment on the target, one post by Alice in her list: the retries created nothing.
    expect(ok(await call('GET', `/v1/posts/${target.id}`)).post.comments_count).toBe(1);
    const posts = ok(await call('GET', `/v1/profiles/${alice.profile.id}/posts`));
    expect(posts.items.filter((p: any) => p.post.body === 'once only')).toHaveLength(1);
  });

  it('answers 422 invalid_request when the key comes back with another body or operation', async () => {
    const key = randomUUID();
    ok(
      await call(
        'POST',
        '/v1/posts',
        withKey(key, { token: alice.key, profileId: alice.profile.id, body: { body: 'first body' } }),
      ),
      201,
    );
    const other = expectError(
      await call(
        'POST',
        '/v1/posts',
        withKey(key, { token: alice.key, profileId: alice.profile.id, body: { body: 'second body' } }),
      ),
      422,
      'invalid_request',
    );
    expect(other.agent.hint).toContain('Idempotency-Key');
    expect(JSON.stringify(other)).not.toContain('second body');
    expectError(
      await call(
        'POST',
        '/v1/messages',
        withKey(key, {
          token: alice.key,
          profileId: alice.profile.id,
          body: { recipient_profile_id: bob.profile.id, body: 'first body' },
        }),
      ),
      422,
      'invalid_request',
    );
  });

  it('keeps keys per credential: another credential with the same key creates its own', async () => {
    const key = randomUUID();
    const mine = ok(
      await call(
        'POST',
        '/v1/posts',
        withKey(key, { token: alice.key, profileId: alice.profile.id, body: { body: 'same key' } }),
      ),
      201,
    );
    const theirs = ok(
      await call(
        'POST',
        '/v1/posts',
        withKey(key, { token: bob.key, profileId: bob.profile.id, body: { body: 'same key' } }),
      ),
      201,
    );
    expect(theirs.post.id).not.toBe(mine.post.id);
  });

  it('lets concurrent duplicates create at most once: the others get the first response or 409 invalid_state', async () => {
    const key = randomUUID();
    const username = unique('race');
    const body = { type: 'human', username, name: 'Race', call_name: 'Race' };
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/v1/profiles', withKey(key, { token: alice.session, body }))),
    );
    const created = replies.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    for (const reply of replies.filter((r) => r.status !== 201)) expectError(reply, 409, 'invalid_state');
  });

  it('refuses a malformed key with 400 and frees a key whose request failed', async () => {
    expectError(
      await call(
        'POST',
        '/v1/posts',
        withKey('x'.repeat(256), { token: alice.key, profileId: alice.profile.id, body: { body: 'x' } }),
      ),
      400,
      'invalid_request',
    );
    const key = randomUUID();
    const taken = alice.profile.username;
    expectError(
      await call(
        'POST',
        '/v1/profiles',
        withKey(key, { token: alice.session, body: { type: 'human', username: taken, name: 'N', call_name: 'N' } }),
      ),
      409,
      'username_taken',
    );
    // The same key, now with a body that can succeed, is not stuck on the failure.
    ok(
      await call(
        'POST',
        '/v1/profiles',
        withKey(key, {
          token: alice.session,
          body: { type: 'human', username: unique('free'), name: 'N', call_name: 'N' },
        }),
      ),
      201,
    );
  });
});
