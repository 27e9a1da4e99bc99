import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, ok, post, settledCount, type Actor } from '../support/social.js';

const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });
const blockCall = (method: string, a: Actor, id: string) =>
  call(method, '/v1/profile-blocks', { ...as(a), body: { blocked_profile_id: id } });
const muteCall = (method: string, a: Actor, id: string) =>
  call(method, '/v1/profile-mutes', { ...as(a), body: { muted_profile_id: id } });
const follow = (a: Actor, b: Actor) =>
  call('POST', '/v1/profile-follows', { ...as(a), body: { followed_profile_id: b.profile.id } });
const counts = async (a: Actor) => ok(await call('GET', `/v1/profiles/${a.profile.id}`));

describe('blocks', () => {
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  beforeAll(async () => {
    [alice, bob, carol] = await Promise.all([actor(), actor(), actor()]);
  });

  it('is idempotent, refuses yourself and unknown profiles, lists newest first with strict cursors', async () => {
    expect(ok(await blockCall('POST', alice, bob.profile.id), 201)).toEqual({ blocked: true });
    const repeat = await blockCall('POST', alice, bob.profile.id);
    expect(ok(repeat, 201)).toEqual({ blocked: true });
    expect(repeat.body.agent.hint).toContain('already');
    expectError(await blockCall('POST', alice, alice.profile.id), 400, 'invalid_request');
    expectError(await blockCall('POST', alice, randomUUID()), 404, 'not_found');
    ok(await blockCall('POST', alice, carol.profile.id), 201);

    const first = ok(await call('GET', '/v1/profile-blocks?limit=1', as(alice)));
    expect(first.items.map((i: any) => i.profile.id)).toEqual([carol.profile.id]);
    expect(first.items[0].created_at).toMatch(/Z$/);
    const second = ok(await call('GET', `/v1/profile-blocks?limit=1&cursor=${first.next_cursor}`, as(alice)));
    expect(second.items.map((i: any) => i.profile.id)).toEqual([bob.profile.id]);
    expectError(await call('GET', `/v1/profile-blocks?cursor=${first.next_cursor}`, as(bob)), 400, 'invalid_request');
    expectError(await call('GET', '/v1/profile-blocks?cursor=bm9wZQ', as(alice)), 400, 'invalid_request');
    // Only the blocker lists its blocks.
    expect(ok(await call('GET', '/v1/profile-blocks', as(bob))).items).toEqual([]);

    expect(ok(await blockCall('DELETE', alice, carol.profile.id))).toEqual({ unblocked: true });
    expect(ok(await blockCall('DELETE', alice, carol.profile.id))).toEqual({ unblocked: false });
  });

  it('ends the follows both ways, and the counts follow', async () => {
    const [dan, erin] = await Promise.all([actor(), actor()]);
    ok(await follow(dan, erin), 201);
    ok(await follow(erin, dan), 201);
    await settledCount('erin followers', async () => (await counts(erin)).followers_count, 1);
    ok(await blockCall('POST', dan, erin.profile.id), 201);
    expect((await counts(dan)).following_count).toBe(0);
    expect((await counts(erin)).following_count).toBe(0);
    expect(await settledCount('erin followers', async () => (await counts(erin)).followers_count, 0)).toBe(0);
    expect(await settledCount('dan followers', async () => (await counts(dan)).followers_count, 0)).toBe(0);
    expectError(await follow(erin, dan), 403, 'blocked');
    ok(await blockCall('DELETE', dan, erin.profile.id));
    // Lifted: following works again, from the next request.
    ok(await follow(erin, dan), 201);
  });

  it('needs safety scopes and the profile_editing grant permission', async () => {
    const keyWithoutSafety = (await createApiKey(alice.session, alice.workspaceId, ['posts:all'], [alice.profile.id]))
      .key;
    expectError(
      await call('POST', '/v1/profile-blocks', {
        token: keyWithoutSafety,
        profileId: alice.profile.id,
        body: { blocked_profile_id: carol.profile.id },
      }),
      403,
      'insufficient_scope',
    );
    const writeOnly = (await createApiKey(alice.session, alice.workspaceId, ['safety:write'], [alice.profile.id])).key;
    expectError(
      await call('GET', '/v1/profile-blocks', { token: writeOnly, profileId: alice.profile.id }),
      403,
      'insufficient_scope',
    );
  });
});

describe('mutes', () => {
  it('leave the muted profile out of the muter’s feed and comment lists only, and it cannot tell', async () => {
    const [mia, max, ned] = await Promise.all([actor(), actor(), actor()]);
    ok(await follow(mia, max), 201);
    const maxPost = (await post(max, { body: 'muted words' })).post.id as string;
    const nedPost = (await post(ned, { body: 'a post' })).post.id as string;
    ok(await call('POST', `/v1/posts/${nedPost}/comments`, { ...as(max), body: { body: 'a comment' } }), 201);

    const inFeed = async () =>
      ok(await call('GET', '/v1/feed', as(mia))).items.some((i: any) => i.post.id === maxPost) ? 1 : 0;
    await settledCount('the post in the feed', inFeed, 1);

    expect(ok(await muteCall('POST', mia, max.profile.id), 201)).toEqual({ muted: true });
    expect(ok(await muteCall('POST', mia, max.profile.id), 201)).toEqual({ muted: true });
    expectError(await muteCall('POST', mia, mia.profile.id), 400, 'invalid_request');
    expectError(await muteCall('POST', mia, randomUUID()), 404, 'not_found');
    expect(ok(await call('GET', '/v1/profile-mutes', as(mia))).items.map((i: any) => i.profile.id)).toEqual([
      max.profile.id,
    ]);

    const comments = ok(await call('GET', `/v1/posts/${nedPost}/comments`, as(mia)));
    expect(comments.items).toEqual([]);
    // A direct read still answers; the muted profile sees and does everything as before.
    expect(ok(await call('GET', `/v1/posts/${maxPost}`, as(mia))).post.id).toBe(maxPost);
    ok(await follow(max, mia), 201);
    expect(ok(await call('GET', `/v1/posts/${nedPost}/comments`, as(max))).items).toHaveLength(1);

    expect(await inFeed()).toBe(0);
    expect(ok(await muteCall('DELETE', mia, max.profile.id))).toEqual({ unmuted: true });
    expect(ok(await muteCall('DELETE', mia, max.profile.id))).toEqual({ unmuted: false });
    expect(ok(await call('GET', `/v1/posts/${nedPost}/comments`, as(mia))).items).toHaveLength(1);
    expect(await inFeed()).toBe(1);
  });
});

describe('reply policies', () => {
  let owner: Actor;
  let friend: Actor;
  let named: Actor;
  let stranger: Actor;
  beforeAll(async () => {
    [owner, friend, named, stranger] = await Promise.all([actor(), actor(), actor(), actor()]);
    ok(await follow(owner, friend), 201);
  });

  const reply = (a: Actor, to: string) =>
    call('POST', '/v1/posts', { ...as(a), body: { body: 're', reply_to_post_id: to } });
  const comment = (a: Actor, on: string) => call('POST', `/v1/posts/${on}/comments`, { ...as(a), body: { body: 'c' } });

  it('defaults to everyone and is carried by the post', async () => {
    const created = await post(owner, { body: 'open' });
    expect(created.post.reply_policy).toBe('everyone');
    ok(await reply(stranger, created.post.id), 201);
    expectError(
      await call('POST', '/v1/posts', { ...as(owner), body: { body: 'x', reply_policy: 'nobody' } }),
      400,
      'invalid_request',
    );
  });

  it('following: the profiles the root’s author follows, anywhere in the thread, judged at reply time', async () => {
    const root = (await post(owner, { body: 'friends only', reply_policy: 'following' })).post.id as string;
    const friendReply = ok(await reply(friend, root), 201).post.id as string;
    expectError(await reply(stranger, root), 403, 'reply_not_allowed');
    // Deeper in the thread, and comments on any of its posts, the root's policy governs.
    expectError(await reply(stranger, friendReply), 403, 'reply_not_allowed');
    expectError(await comment(stranger, friendReply), 403, 'reply_not_allowed');
    expectError(await comment(stranger, root), 403, 'reply_not_allowed');
    ok(await comment(friend, root), 201);
    ok(await reply(owner, friendReply), 201);
    // Once the author follows the stranger, the stranger may reply.
    ok(await follow(owner, stranger), 201);
    ok(await reply(stranger, friendReply), 201);
  });

  it('mentioned: the profiles the root mentions; the author always', async () => {
    const root = (await post(owner, { body: `hey @${named.profile.username}`, reply_policy: 'mentioned' })).post
      .id as string;
    ok(await reply(named, root), 201);
    ok(await comment(named, root), 201);
    expectError(await reply(friend, root), 403, 'reply_not_allowed');
    expectError(await comment(friend, root), 403, 'reply_not_allowed');
    ok(await reply(owner, root), 201);
    ok(await comment(owner, root), 201);
  });
});
