import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, follow, ok, post, type Actor } from '../support/social.js';

// Each test starts its own profiles: an inbox is a profile's, and what one test does must not show in another's.
type Actors<N extends number, R extends Actor[] = []> = R['length'] extends N ? R : Actors<N, [Actor, ...R]>;
const people = <N extends number>(n: N) =>
  Promise.all(Array.from({ length: n }, () => actor())).then((list) => list as Actors<N>);

const inbox = (a: Actor, query = '') =>
  call('GET', `/v1/notifications${query}`, { token: a.key, profileId: a.profile.id });
const items = async (a: Actor, query = '') => ok(await inbox(a, query)).items as any[];
const unread = async (a: Actor) =>
  ok(await call('GET', '/v1/notifications/unread-count', { token: a.key, profileId: a.profile.id })).count as number;
const seen = (a: Actor, body: Record<string, unknown> = {}) =>
  call('POST', '/v1/notifications/seen', { token: a.key, profileId: a.profile.id, body });
const like = async (a: Actor, postId: string, active = true) =>
  ok(
    await call('PUT', `/v1/posts/${postId}/reaction`, {
      token: a.key,
      profileId: a.profile.id,
      body: { reaction_type: 'like', active },
    }),
  );
const preferences = (a: Actor, body: Record<string, unknown>) =>
  call('PUT', '/v1/notifications/preferences', { token: a.key, profileId: a.profile.id, body });

/** Reads the inbox until `done` holds of it (notifications are written from the stream, within 2 s). */
async function eventually(a: Actor, done: (list: any[]) => boolean, query = '', timeoutMs = 10_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  let list = await items(a, query);
  while (!done(list)) {
    if (Date.now() > deadline) throw new Error(`inbox never settled: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 100));
    list = await items(a, query);
  }
  return list;
}

/** Waits long enough for anything that would be written from the stream to be written. */
const quiet = () => new Promise((r) => setTimeout(r, 1500));

describe('notifications', () => {
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  beforeAll(async () => {
    [alice, bob, carol] = await people(3);
  });

  it('each reason comes from its real action, to the profile it happened to, never to the actor', async () => {
    // mention, and a post mentioning its own author notifies nobody
    const { post: mentioning } = await post(alice, {
      body: `hello @${bob.profile.username} and @${alice.profile.username}`,
    });
    const [mention] = await eventually(bob, (l) => l.some((n) => n.reason === 'mention'));
    expect(mention).toMatchObject({
      reason: 'mention',
      subject: { type: 'post', id: mentioning.id },
      post: { id: mentioning.id, body: mentioning.body },
      comment: null,
      actors: [{ id: alice.profile.id, username: alice.profile.username }],
      actors_count: 1,
      seen: false,
    });
    expect(mention.created_at).toBe(mention.updated_at);

    // reply, quote, comment, comment_reply to alice from bob
    const { post: original } = await post(alice, { body: 'original' });
    const { post: reply } = await post(bob, { body: 'a reply', reply_to_post_id: original.id });
    const { post: quote } = await post(bob, { body: 'a quote', quote_of_post_id: original.id });
    const comment = ok(
      await call('POST', `/v1/posts/${original.id}/comments`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { body: 'a comment' },
      }),
      201,
    ).comment;
    const aliceComment = ok(
      await call('POST', `/v1/posts/${original.id}/comments`, {
        token: alice.key,
        profileId: alice.profile.id,
        body: { body: 'my own comment' },
      }),
      201,
    ).comment;
    const nested = ok(
      await call('POST', `/v1/posts/${original.id}/comments`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { body: 'a nested reply', parent_comment_id: aliceComment.id },
      }),
      201,
    ).comment;
    // likes of the post and of the comment, a follow
    await like(alice, original.id);
    await like(bob, original.id);
    ok(
      await call('PUT', `/v1/comments/${aliceComment.id}/reaction`, {
        token: carol.key,
        profileId: carol.profile.id,
        body: { reaction_type: 'like', active: true },
      }),
    );
    await follow(carol, alice);

    const reasons = ['reply', 'quote', 'comment', 'comment_reply', 'like', 'comment_like', 'follow'];
    const list = await eventually(alice, (l) => reasons.every((r) => l.some((n) => n.reason === r)));
    const of = (reason: string) => list.filter((n) => n.reason === reason);
    expect(of('reply')).toMatchObject([{ subject: { type: 'post', id: reply.id }, post: { id: reply.id } }]);
    expect(of('quote')).toMatchObject([{ subject: { type: 'post', id: quote.id }, post: { id: quote.id } }]);
    expect(of('comment')).toMatchObject([
      { subject: { type: 'comment', id: comment.id }, post: { id: original.id }, comment: { id: comment.id } },
    ]);
    expect(of('comment_reply')).toMatchObject([
      { subject: { type: 'comment', id: nested.id }, comment: { id: nested.id, parent_comment_id: aliceComment.id } },
    ]);
    // alice's like of her own post is not counted; bob's is
    expect(of('like')).toMatchObject([
      { subject: { type: 'post', id: original.id }, actors: [{ id: bob.profile.id }], actors_count: 1 },
    ]);
    expect(of('comment_like')).toMatchObject([
      {
        subject: { type: 'comment', id: aliceComment.id },
        post: { id: original.id },
        actors: [{ id: carol.profile.id }],
      },
    ]);
    expect(of('follow')).toMatchObject([
      { subject: { type: 'profile', id: alice.profile.id }, post: null, actors: [{ id: carol.profile.id }] },
    ]);
    // Nothing went to the actors themselves.
    await quiet();
    expect((await items(alice)).filter((n) => n.reason === 'mention')).toEqual([]);
    expect((await items(bob)).map((n) => n.reason)).toEqual(['mention']);
    expect(await items(carol)).toEqual([]);
    // newest update first
    const times = list.map((n) => n.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('access invitations (created, resent) go to the manager, the acceptance to the managed profile', async () => {
    const [managed, manager] = await people(2);
    const grant = ok(
      await call('POST', '/v1/profile-access', {
        token: managed.key,
        body: { profile_id: managed.profile.id, manager_profile_id: manager.profile.id, permissions: ['posting'] },
      }),
      201,
    ).access_grant;
    const [invitation] = await eventually(manager, (l) => l.length === 1);
    expect(invitation).toMatchObject({
      reason: 'access_invitation',
      subject: { type: 'access_grant', id: grant.id },
      actors: [{ id: managed.profile.id }],
      post: null,
      comment: null,
    });
    ok(await call('POST', `/v1/profile-access/${grant.id}/resend`, { token: managed.key }));
    await eventually(manager, (l) => l.length === 2 && l.every((n) => n.reason === 'access_invitation'));
    ok(await call('POST', `/v1/profile-access/invitations/${grant.id}/accept`, { token: manager.key }));
    const [accepted] = await eventually(managed, (l) => l.length === 1);
    expect(accepted).toMatchObject({
      reason: 'access_accepted',
      subject: { type: 'access_grant', id: grant.id },
      actors: [{ id: manager.profile.id }],
    });
    await quiet();
    expect(await items(manager)).toHaveLength(2);
  });

  it('likes group per post while unseen: each profile once, newest first, exact count; seen closes the group', async () => {
    const [author, ...likers] = await people(6);
    const { post: p } = await post(author, { body: 'like me' });
    await Promise.all(likers.slice(0, 4).map((l) => like(l, p.id)));
    let [group] = await eventually(author, (l) => l[0]?.actors_count === 4);
    expect(group.actors).toHaveLength(3);
    expect(new Set(group.actors.map((a: any) => a.id)).size).toBe(3);
    expect(await unread(author)).toBe(1);
    // unliking does not withdraw; liking again does not count twice
    await like(likers[0], p.id, false);
    await like(likers[0], p.id, true);
    await like(likers[4], p.id);
    [group] = await eventually(author, (l) => l[0]?.actors_count === 5);
    expect(group.actors[0].id).toBe(likers[4].profile.id);
    await quiet();
    const list = await items(author);
    expect(list).toHaveLength(1);
    expect(list[0].actors_count).toBe(5);
    expect(group.updated_at > group.created_at).toBe(true);

    const done = ok(await seen(author));
    expect(done.count).toBe(0);
    expect(await unread(author)).toBe(0);
    expect((await items(author))[0]).toMatchObject({ seen: true, actors_count: 5 });
    // once seen, the next like opens a new notification
    await like(bob, p.id);
    const after = await eventually(author, (l) => l.length === 2);
    expect(after[0]).toMatchObject({ reason: 'like', seen: false, actors_count: 1, actors: [{ id: bob.profile.id }] });
    expect(after[1]).toMatchObject({ seen: true, actors_count: 5 });
    expect(await unread(author)).toBe(1);
  });

  it('follows group per recipient; an unfollow does not withdraw', async () => {
    const [star, ...fans] = await people(3);
    await follow(fans[0], star);
    await follow(fans[1], star);
    const [group] = await eventually(star, (l) => l[0]?.actors_count === 2);
    expect(group).toMatchObject({ reason: 'follow', subject: { type: 'profile', id: star.profile.id } });
    ok(
      await call('DELETE', '/v1/profile-follows', {
        token: fans[0].key,
        profileId: fans[0].profile.id,
        body: { followed_profile_id: star.profile.id },
      }),
    );
    await follow(fans[0], star);
    await quiet();
    expect(await items(star)).toMatchObject([{ reason: 'follow', actors_count: 2 }]);
  });

  it('seen_at: only notifications updated at or before it; never in the future', async () => {
    const [author, fan] = await people(2);
    const { post: first } = await post(author, { body: 'one' });
    await post(fan, { body: 'r1', reply_to_post_id: first.id });
    await eventually(author, (l) => l.length === 1);
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await post(fan, { body: 'r2', reply_to_post_id: first.id });
    await eventually(author, (l) => l.length === 2);
    expect(await unread(author)).toBe(2);
    expect(ok(await seen(author, { seen_at: between }))).toEqual({ seen_at: between, count: 1 });
    const list = await items(author);
    expect(list.map((n) => n.seen)).toEqual([false, true]);
    const future = new Date(Date.now() + 60_000).toISOString();
    const refused = expectError(await seen(author, { seen_at: future }), 400, 'invalid_request');
    expect(refused.agent.hint).toMatch(/future/);
    expectError(await seen(author, { seen_at: 'yesterday' }), 400, 'invalid_request');
    expect(await unread(author)).toBe(1);
  });

  it('filters by reason; refuses unknown reasons and forged cursors; pages', async () => {
    const [author, fan] = await people(2);
    const { post: p } = await post(author, { body: 'p' });
    await post(fan, { body: 'r', reply_to_post_id: p.id });
    await post(fan, { body: 'q', quote_of_post_id: p.id });
    await like(fan, p.id);
    await follow(fan, author);
    await eventually(author, (l) => l.length === 4);
    expect((await items(author, '?reasons=like,follow')).map((n) => n.reason).sort()).toEqual(['follow', 'like']);
    expect((await items(author, '?reasons=quote')).map((n) => n.reason)).toEqual(['quote']);
    const bad = expectError(await inbox(author, '?reasons=like,loves'), 400, 'invalid_request');
    expect(bad.agent.hint).toMatch(/reasons/);
    expectError(await inbox(author, '?cursor=forged'), 400, 'invalid_request');
    const first = ok(await inbox(author, '?limit=3'));
    expect(first.items).toHaveLength(3);
    const rest = ok(await inbox(author, `?limit=3&cursor=${first.next_cursor}`));
    expect(rest.items).toHaveLength(1);
    expect(new Set([...first.items, ...rest.items].map((n: any) => n.id)).size).toBe(4);
    // another reader's cursor does not read this inbox
    expectError(await inbox(fan, `?limit=3&cursor=${first.next_cursor}`), 400, 'invalid_request');
  });

  it('preferences: whole map, partial changes, none and following; unknown reasons or values refused', async () => {
    const [me, friend, stranger] = await people(3);
    const get = () => call('GET', '/v1/notifications/preferences', { token: me.key, profileId: me.profile.id });
    const defaults = ok(await get());
    expect(Object.values(defaults).every((v) => v === 'all')).toBe(true);
    expect(Object.keys(defaults)).toHaveLength(13);
    const changed = ok(await preferences(me, { like: 'none', follow: 'following' }));
    expect(changed).toMatchObject({ like: 'none', follow: 'following', mention: 'all' });
    expect(ok(await get())).toEqual(changed);
    expectError(await preferences(me, { likes: 'none' }), 400, 'invalid_request');
    expectError(await preferences(me, { like: 'some' }), 400, 'invalid_request');

    await follow(me, friend);
    const { post: p } = await post(me, { body: `mine, @${friend.profile.username}` });
    await like(friend, p.id);
    await follow(stranger, me);
    await follow(friend, me);
    const [followed] = await eventually(me, (l) => l.some((n) => n.reason === 'follow'));
    expect(followed).toMatchObject({ reason: 'follow', actors: [{ id: friend.profile.id }], actors_count: 1 });
    await quiet();
    expect((await items(me)).map((n) => n.reason)).toEqual(['follow']);
  });

  it("leaves out what the recipient's mutes hide: a muted profile's likes, follows and replies", async () => {
    const [me, muted, other] = await people(3);
    ok(
      await call('POST', '/v1/profile-mutes', {
        token: me.key,
        profileId: me.profile.id,
        body: { muted_profile_id: muted.profile.id },
      }),
      201,
    );
    const { post: p } = await post(me, { body: 'mine' });
    await like(muted, p.id);
    await follow(muted, me);
    await post(muted, { body: 'a muted reply', reply_to_post_id: p.id });
    await like(other, p.id);
    const [liked] = await eventually(me, (l) => l.some((n) => n.reason === 'like'));
    expect(liked).toMatchObject({ reason: 'like', actors: [{ id: other.profile.id }], actors_count: 1 });
    await quiet();
    expect((await items(me)).map((n) => n.reason)).toEqual(['like']);
  });

  it('needs the notifications scope; the acting profile must be the caller’s (or managed with profile_editing)', async () => {
    const [owner, outsider, manager] = await people(3);
    const narrow = await createApiKey(owner.session, owner.workspaceId, ['posts:read'], [owner.profile.id]);
    expectError(
      await call('GET', '/v1/notifications', { token: narrow.key, profileId: owner.profile.id }),
      403,
      'insufficient_scope',
    );
    const reader = await createApiKey(owner.session, owner.workspaceId, ['notifications:read'], [owner.profile.id]);
    ok(await call('GET', '/v1/notifications', { token: reader.key, profileId: owner.profile.id }));
    expectError(
      await call('POST', '/v1/notifications/seen', { token: reader.key, profileId: owner.profile.id, body: {} }),
      403,
      'insufficient_scope',
    );
    // another workspace's profile
    expectError(
      await call('GET', '/v1/notifications', { token: outsider.key, profileId: owner.profile.id }),
      403,
      'profile_not_permitted',
    );
    expectError(
      await call('GET', '/v1/notifications', { token: outsider.key, profileId: randomUUID() }),
      403,
      'profile_not_permitted',
    );
    // a manager: only with profile_editing
    const grantOf = async (permissions: string[]) => {
      const g = ok(
        await call('POST', '/v1/profile-access', {
          token: owner.key,
          body: { profile_id: owner.profile.id, manager_profile_id: manager.profile.id, permissions },
        }),
        201,
      ).access_grant;
      ok(await call('POST', `/v1/profile-access/invitations/${g.id}/accept`, { token: manager.key }));
      return g;
    };
    const posting = await grantOf(['posting']);
    expectError(
      await call('GET', '/v1/notifications', { token: manager.key, profileId: owner.profile.id }),
      403,
      'profile_not_permitted',
    );
    ok(await call('POST', `/v1/profile-access/${posting.id}/revoke`, { token: owner.key }));
    await grantOf(['profile_editing']);
    // The manager reads what happened to the managed profile: both acceptances of its grants.
    const asManager = { ...owner, key: manager.key };
    const managed = await eventually(asManager, (l) => l.length === 2);
    expect(managed.map((n) => [n.reason, n.actors[0].id])).toEqual([
      ['access_accepted', manager.profile.id],
      ['access_accepted', manager.profile.id],
    ]);
    expect(
      ok(await call('GET', '/v1/notifications/unread-count', { token: manager.key, profileId: owner.profile.id })),
    ).toEqual({ count: 2 });
    expect(ok(await seen(asManager)).count).toBe(0);
    // and without X-Profile-Id the key's profile must be named
    expectError(await call('GET', '/v1/notifications', { token: owner.key }), 400, 'invalid_request');
  });
});
