import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, expectError, signUp } from '../support/api.js';
import { actor, ok, post, settledCount, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const react = (a: Actor, postId: string, active: boolean, reaction_type = 'like') =>
  call('PUT', `/v1/posts/${postId}/reaction`, {
    token: a.key,
    profileId: a.profile.id,
    body: { reaction_type, active },
  });

const likesOf = async (postId: string) => ok(await call('GET', `/v1/posts/${postId}`)).post.likes_count as number;

describe('post reactions', () => {
  it('like and unlike are idempotent; viewer_reaction follows the acting profile at once, likes_count follows', async () => {
    const { post: p } = await post(alice, { body: 'like me' });
    expect(ok(await react(bob, p.id, true))).toEqual({ post_id: p.id, likes_count: 1, viewer_reaction: 'like' });
    expect(await settledCount('likes', () => likesOf(p.id), 1)).toBe(1);
    // Liking again changes nothing: the count read, plus no change.
    expect(ok(await react(bob, p.id, true))).toEqual({ post_id: p.id, likes_count: 1, viewer_reaction: 'like' });
    expect(ok(await react(alice, p.id, true)).likes_count).toBe(2);
    // The viewer's own reaction is read from its own item: exact at once, whatever the count shows yet.
    expect(
      ok(await call('GET', `/v1/posts/${p.id}`, { token: bob.key, profileId: bob.profile.id })).post.viewer_reaction,
    ).toBe('like');
    expect(await settledCount('likes', () => likesOf(p.id), 2)).toBe(2);
    expect(
      ok(await call('GET', `/v1/posts/${p.id}`, { token: bob.key, profileId: bob.profile.id })).post,
    ).toMatchObject({ likes_count: 2, viewer_reaction: 'like' });
    expect(ok(await call('GET', `/v1/posts/${p.id}`)).post.viewer_reaction).toBeNull();
    const list = ok(
      await call('GET', `/v1/profiles/${alice.profile.id}/posts`, { token: bob.key, profileId: bob.profile.id }),
    );
    expect(list.items.find((i: any) => i.post.id === p.id).post.viewer_reaction).toBe('like');

    expect(ok(await react(bob, p.id, false))).toEqual({ post_id: p.id, likes_count: 1, viewer_reaction: null });
    expect(
      ok(await call('GET', `/v1/posts/${p.id}`, { token: bob.key, profileId: bob.profile.id })).post.viewer_reaction,
    ).toBeNull();
    expect(await settledCount('likes', () => likesOf(p.id), 1)).toBe(1);
    expect(ok(await react(bob, p.id, false))).toEqual({ post_id: p.id, likes_count: 1, viewer_reaction: null });
    expect(await settledCount('likes', () => likesOf(p.id), 1)).toBe(1);
  });

  it('rejects other reaction types, missing fields, unknown and unpublished posts', async () => {
    const { post: p } = await post(alice, { body: 'r' });
    expectError(await react(bob, p.id, true, 'love'), 400, 'invalid_request');
    expectError(
      await call('PUT', `/v1/posts/${p.id}/reaction`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { reaction_type: 'like' },
      }),
      400,
      'invalid_request',
    );
    expectError(
      await call('PUT', `/v1/posts/${p.id}/reaction`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { active: true },
      }),
      400,
      'invalid_request',
    );
    expectError(await react(bob, randomUUID(), true), 404, 'not_found');
    expectError(await react(bob, 'nope', true), 400, 'invalid_request');
    const { post: draft } = await post(alice, { body: 'd', status: 'draft' });
    expectError(await react(bob, draft.id, true), 404, 'not_found');
    ok(await react(bob, p.id, true));
    ok(await call('DELETE', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id }));
    expectError(await react(bob, p.id, false), 404, 'not_found');
  });

  it('a key without posts:write cannot react', async () => {
    const { post: p } = await post(alice, { body: 'r' });
    const { key } = await createApiKey(
      bob.session,
      bob.workspaceId,
      ['posts:read', 'comments:write'],
      [bob.profile.id],
    );
    expectError(
      await call('PUT', `/v1/posts/${p.id}/reaction`, {
        token: key,
        profileId: bob.profile.id,
        body: { reaction_type: 'like', active: true },
      }),
      403,
      'insufficient_scope',
    );
  });

  it('likes_count is exact, once counted, when 100 like/unlike requests from 60 profiles hit one post at once', async () => {
    const { post: p } = await post(alice, { body: 'hot post' });
    const owner = await signUp();
    const profiles = await Promise.all(Array.from({ length: 60 }, () => createProfile(owner.token)));
    const { key } = await createApiKey(
      owner.token,
      owner.workspace.id,
      ['posts:write'],
      profiles.map((x) => x.id),
    );
    const fire = (profileId: string, active: boolean) =>
      call('PUT', `/v1/posts/${p.id}/reaction`, { token: key, profileId, body: { reaction_type: 'like', active } });

    // Burst 1: 40 profiles like at once.
    const burst1 = await Promise.all(profiles.slice(0, 40).map((x) => fire(x.id, true)));
    for (const response of burst1) expect(response.status).toBe(200);
    expect(await settledCount('likes after burst 1', () => likesOf(p.id), 40)).toBe(40);

    // Burst 2, all 60 profiles at once (each profile sends one request, so its last action is known):
    // 0-24 unlike, 25-39 like again (repeat), 40-59 like (new). Expected: profiles 25-59 like it.
    const likesAtEnd = (i: number) => i >= 25;
    const burst2 = await Promise.all(profiles.map((x, i) => fire(x.id, likesAtEnd(i))));
    for (const response of burst2) expect(response.status).toBe(200);
    const lastActionLike = profiles.filter((_, i) => likesAtEnd(i)).length;
    expect(lastActionLike).toBe(35);
    expect(await settledCount('likes after burst 2', () => likesOf(p.id), lastActionLike)).toBe(lastActionLike);
    // Each response is the caller's own state.
    burst2.forEach((response, i) => expect(response.body.data.viewer_reaction).toBe(likesAtEnd(i) ? 'like' : null));
    // And the per-viewer state agrees with the count.
    const viewers = await Promise.all(
      profiles.map((x) => call('GET', `/v1/posts/${p.id}`, { token: key, profileId: x.id })),
    );
    expect(viewers.filter((v) => v.body.data.post.viewer_reaction === 'like')).toHaveLength(lastActionLike);
  });
});

describe('comment reactions', () => {
  it('like/unlike a comment: idempotent, reactions_count exact once counted, viewer_reaction in the list at once', async () => {
    const { post: p } = await post(alice, { body: 'c' });
    const { comment } = ok(
      await call('POST', `/v1/posts/${p.id}/comments`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { body: 'nice' },
      }),
      201,
    );
    const like = (a: Actor, active: boolean, reaction_type = 'like') =>
      call('PUT', `/v1/comments/${comment.id}/reaction`, {
        token: a.key,
        profileId: a.profile.id,
        body: { reaction_type, active },
      });
    const listed = async (a?: Actor) =>
      ok(
        await call('GET', `/v1/posts/${p.id}/comments`, a ? { token: a.key, profileId: a.profile.id } : {}),
      ).items.find((i: any) => i.comment.id === comment.id).comment;
    const reactions = async () => (await listed()).reactions_count as number;
    expect(ok(await like(alice, true))).toEqual({
      comment_id: comment.id,
      reactions_count: 1,
      viewer_reaction: 'like',
    });
    expect((await listed(alice)).viewer_reaction).toBe('like');
    expect(await settledCount('reactions', reactions, 1)).toBe(1);
    expect(ok(await like(alice, true)).reactions_count).toBe(1);
    expect(ok(await like(bob, true)).reactions_count).toBe(2);
    expect(await settledCount('reactions', reactions, 2)).toBe(2);
    expect(await listed(alice)).toMatchObject({ reactions_count: 2, viewer_reaction: 'like' });
    expect(ok(await like(alice, false))).toEqual({ comment_id: comment.id, reactions_count: 1, viewer_reaction: null });
    expect((await listed(alice)).viewer_reaction).toBeNull();
    expect(await settledCount('reactions', reactions, 1)).toBe(1);
    expect(ok(await like(alice, false)).reactions_count).toBe(1);
    expect(await settledCount('reactions', reactions, 1)).toBe(1);
    expectError(await like(alice, true, 'wow'), 400, 'invalid_request');
    expectError(
      await call('PUT', `/v1/comments/${randomUUID()}/reaction`, {
        token: alice.key,
        profileId: alice.profile.id,
        body: { reaction_type: 'like', active: true },
      }),
      404,
      'not_found',
    );
  });
});
