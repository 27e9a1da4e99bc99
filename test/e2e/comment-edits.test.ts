/**
 * Comments their author edits and deletes, deletion by the post's author or a moderator, and the
 * history of edits of posts and comments (API.md "Your data is yours": Comments, Edits are kept).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { moderatorCommand } from '../support/moderation.js';
import { eventsFor } from '../support/outbox.js';
import { actor, ok, post, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
let carol: Actor;
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([actor(), actor(), actor()]);
});

const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });
const comment = async (a: Actor, postId: string, body: string, parent?: string) =>
  ok(
    await call('POST', `/v1/posts/${postId}/comments`, {
      ...as(a),
      body: { body, ...(parent && { parent_comment_id: parent }) },
    }),
    201,
  ).comment;
const edit = (a: Actor, id: string, body: unknown) => call('PATCH', `/v1/comments/${id}`, { ...as(a), body });
const remove = (a: Actor, id: string) => call('DELETE', `/v1/comments/${id}`, as(a));
const listed = async (postId: string) => ok(await call('GET', `/v1/posts/${postId}/comments`)).items;
const commentsCount = async (postId: string) =>
  ok(await call('GET', `/v1/posts/${postId}`)).post.comments_count as number;

describe('editing a comment', () => {
  it('changes the body, sets edited_at and keeps the earlier versions, newest first', async () => {
    const { post: p } = await post(alice, { body: 'discuss' });
    const c = await comment(bob, p.id, 'first');
    expect(c.edited_at).toBeNull();
    const once = ok(await edit(bob, c.id, { body: 'second' }));
    expect(once.comment).toMatchObject({ id: c.id, body: 'second', status: 'published' });
    expect(once.comment.edited_at).toEqual(expect.any(String));
    expect(once.profile.id).toBe(bob.profile.id);
    const twice = ok(await edit(bob, c.id, { body: 'third' })).comment;

    const history = ok(await call('GET', `/v1/comments/${c.id}/history`));
    expect(history.items).toEqual([
      { body: 'second', edited_at: once.comment.edited_at },
      { body: 'first', edited_at: null },
    ]);
    expect(history.next_cursor).toBeNull();
    expect(twice.edited_at >= once.comment.edited_at).toBe(true);
    expect((await listed(p.id)).map((i: any) => i.comment.body)).toEqual(['third']);

    const page = ok(await call('GET', `/v1/comments/${c.id}/history?limit=1`));
    expect(page.items.map((v: any) => v.body)).toEqual(['second']);
    const rest = ok(await call('GET', `/v1/comments/${c.id}/history?limit=1&cursor=${page.next_cursor}`));
    expect(rest.items.map((v: any) => v.body)).toEqual(['first']);
  });

  it("refuses someone else's comment (403) and a bad body (400), and changes nothing", async () => {
    const { post: p } = await post(alice, { body: 'mine' });
    const c = await comment(bob, p.id, 'bob says');
    // Not even the post's author may edit it.
    expectError(await edit(alice, c.id, { body: 'rewritten' }), 403, 'forbidden');
    expectError(await edit(carol, c.id, { body: 'rewritten' }), 403, 'forbidden');
    expectError(await edit(bob, c.id, { body: '   ' }), 400, 'invalid_request');
    expectError(await edit(bob, c.id, { body: 'x', status: 'deleted' }), 400, 'invalid_request');
    expectError(await edit(bob, c.id, {}), 400, 'invalid_request');
    expectError(await edit(bob, '00000000-0000-4000-8000-000000000000', { body: 'x' }), 404, 'not_found');
    expectError(await edit(bob, 'not-a-uuid', { body: 'x' }), 400, 'invalid_request');
    const [item] = await listed(p.id);
    expect(item.comment).toMatchObject({ body: 'bob says', edited_at: null });
    expect(ok(await call('GET', `/v1/comments/${c.id}/history`)).items).toEqual([]);
  });

  it('refuses a deleted comment (409) and needs comments:write', async () => {
    const { post: p } = await post(alice, { body: 'thread' });
    const c = await comment(bob, p.id, 'parent');
    await comment(carol, p.id, 'child', c.id);
    ok(await remove(bob, c.id));
    expectError(await edit(bob, c.id, { body: 'back' }), 409, 'invalid_state');
    const readOnly = await actor(['posts:read']);
    const mine = await comment(alice, p.id, 'by alice');
    expect((await edit(readOnly, mine.id, { body: 'x' })).status).toBe(403);
  });
});

describe('deleting a comment', () => {
  it('without replies: it leaves the list and the counts, once, and sends comment.deleted', async () => {
    const { post: p } = await post(alice, { body: 'count me' });
    const c = await comment(bob, p.id, 'gone soon');
    await comment(carol, p.id, 'stays');
    expect(await commentsCount(p.id)).toBe(2);
    expect(ok(await remove(bob, c.id))).toEqual({ deleted: true });
    expect(await commentsCount(p.id)).toBe(1);
    expect((await listed(p.id)).map((i: any) => i.comment.body)).toEqual(['stays']);
    // A retry finds it gone: nothing moves twice.
    expectError(await remove(bob, c.id), 404, 'not_found');
    expect(await commentsCount(p.id)).toBe(1);
    expectError(await call('GET', `/v1/comments/${c.id}/history`), 404, 'not_found');

    const deleted = (await eventsFor([alice.profile.id])).filter(
      (e) => e.type === 'comment.deleted' && e.data.post_id === p.id,
    );
    expect(deleted.map((e) => e.data)).toEqual([{ comment_id: c.id, post_id: p.id }]);
  });

  it('with replies: it stays as deleted with an empty body, uncounted, and replies keep their place', async () => {
    const { post: p } = await post(alice, { body: 'nested' });
    const top = await comment(carol, p.id, 'top');
    const c = await comment(bob, p.id, 'middle', top.id);
    const reply = await comment(carol, p.id, 'under', c.id);
    ok(await edit(bob, c.id, { body: 'middle, edited' }));
    expect(await commentsCount(p.id)).toBe(3);

    ok(await remove(bob, c.id));
    const items = await listed(p.id);
    expect(items.map((i: any) => [i.comment.id, i.comment.status, i.comment.body])).toEqual([
      [top.id, 'published', 'top'],
      [c.id, 'deleted', ''],
      [reply.id, 'published', 'under'],
    ]);
    expect(items[0].comment.replies_count).toBe(0);
    expect(items[1].comment.replies_count).toBe(1);
    expect(await commentsCount(p.id)).toBe(2);
    // Deleting it again answers the same and moves nothing; its history went with its body.
    expect(ok(await remove(bob, c.id))).toEqual({ deleted: true });
    expect(await commentsCount(p.id)).toBe(2);
    expect(ok(await call('GET', `/v1/posts/${p.id}/comments`)).items[0].comment.replies_count).toBe(0);
    expectError(await call('GET', `/v1/comments/${c.id}/history`), 404, 'not_found');
    // The reply's event went to the parent's author: so does its deletion's.
    const toCarol = (await eventsFor([carol.profile.id])).filter(
      (e) => e.type === 'comment.deleted' && e.data.post_id === p.id,
    );
    expect(toCarol.map((e) => e.data)).toEqual([{ comment_id: c.id, post_id: p.id }]);
  });

  it("by the post's author, even across a block, or a moderator; anyone else is refused and nothing changes", async () => {
    const { post: p } = await post(alice, { body: 'my post' });
    const byBob = await comment(bob, p.id, 'bob');
    const byCarol = await comment(carol, p.id, 'carol');
    const third = await comment(bob, p.id, 'bob again');

    expectError(await remove(carol, byBob.id), 403, 'forbidden');
    expect(await commentsCount(p.id)).toBe(3);

    ok(await call('POST', '/v1/profile-blocks', { ...as(alice), body: { blocked_profile_id: bob.profile.id } }), 201);
    expect(ok(await remove(alice, byBob.id))).toEqual({ deleted: true });
    expect(await commentsCount(p.id)).toBe(2);
    ok(await remove(alice, byCarol.id));
    expect(await commentsCount(p.id)).toBe(1);

    const moderator = await actor();
    expect((await moderatorCommand('grant', moderator.user.email)).code).toBe(0);
    const asModerator = { token: moderator.session, profileId: moderator.profile.id };
    expectError(await call('DELETE', `/v1/comments/${third.id}`, as(moderator)), 403, 'forbidden');
    ok(await call('DELETE', `/v1/comments/${third.id}`, asModerator));
    expect(await commentsCount(p.id)).toBe(0);
    expect(await listed(p.id)).toEqual([]);
  });
});

describe('post history', () => {
  it("keeps a published post's earlier versions, readable as the post is", async () => {
    const { post: p } = await post(alice, { body: 'v1' });
    expect(p.edited_at).toBeNull();
    const patch = (body: Record<string, unknown>) => call('PATCH', `/v1/posts/${p.id}`, { ...as(alice), body });
    const v2 = ok(await patch({ body: 'v2' })).post;
    expect(v2.edited_at).toEqual(expect.any(String));
    ok(await patch({ body: 'v3' }));
    const history = ok(await call('GET', `/v1/posts/${p.id}/history`));
    expect(history.items).toEqual([
      { body: 'v2', images: [], edited_at: v2.edited_at },
      { body: 'v1', images: [], edited_at: null },
    ]);

    ok(await call('POST', '/v1/profile-blocks', { ...as(carol), body: { blocked_profile_id: alice.profile.id } }), 201);
    expectError(await call('GET', `/v1/posts/${p.id}/history`, as(carol)), 404, 'not_found');
    const reader = await actor();
    expect(ok(await call('GET', `/v1/posts/${p.id}/history`, as(reader))).items).toHaveLength(2);
  });

  it("a draft's edits are not history; a removed post's history is its author's alone", async () => {
    const { post: d } = await post(alice, { body: 'draft 1', status: 'draft' });
    const patch = (body: Record<string, unknown>) => call('PATCH', `/v1/posts/${d.id}`, { ...as(alice), body });
    ok(await patch({ body: 'draft 2' }));
    expectError(await call('GET', `/v1/posts/${d.id}/history`), 404, 'not_found');
    const published = ok(await patch({ status: 'published' })).post;
    expect(published.edited_at).toBeNull();
    expect(ok(await call('GET', `/v1/posts/${d.id}/history`)).items).toEqual([]);
    ok(await call('DELETE', `/v1/posts/${d.id}`, as(alice)));
    expectError(await call('GET', `/v1/posts/${d.id}/history`), 404, 'not_found');
    expect(ok(await call('GET', `/v1/posts/${d.id}/history`, as(alice))).items).toEqual([]);
  });
});

describe('comment history visibility', () => {
  it('is not found across a block with its author, and a removed post takes it along', async () => {
    const [dave, erin] = await Promise.all([actor(), actor()]);
    const { post: p } = await post(alice, { body: 'host' });
    const c = await comment(dave, p.id, 'before');
    ok(await edit(dave, c.id, { body: 'after' }));
    expect(ok(await call('GET', `/v1/comments/${c.id}/history`, as(erin))).items).toHaveLength(1);
    ok(await call('POST', '/v1/profile-blocks', { ...as(dave), body: { blocked_profile_id: erin.profile.id } }), 201);
    expectError(await call('GET', `/v1/comments/${c.id}/history`, as(erin)), 404, 'not_found');
    // Blocked, Erin cannot reach it to edit or delete: 404, not 403.
    expectError(await edit(erin, c.id, { body: 'x' }), 404, 'not_found');
    ok(await call('DELETE', `/v1/posts/${p.id}`, as(alice)));
    expectError(await call('GET', `/v1/comments/${c.id}/history`), 404, 'not_found');
  });
});
