import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, ok, post, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

const comment = (a: Actor, postId: string, body: Record<string, unknown>) =>
  call('POST', `/v1/posts/${postId}/comments`, { token: a.key, profileId: a.profile.id, body });

describe('comments', () => {
  it('top-level comments and nested replies at any depth, with exact counts, listed oldest first', async () => {
    const { post: p } = await post(alice, { body: 'discuss' });
    const c1 = ok(await comment(bob, p.id, { body: 'first' }), 201);
    expect(c1.profile.id).toBe(bob.profile.id);
    expect(c1.comment).toMatchObject({
      post_id: p.id,
      profile_id: bob.profile.id,
      parent_comment_id: null,
      body: 'first',
      status: 'published',
      replies_count: 0,
      reactions_count: 0,
      viewer_reaction: null,
    });
    const r1 = ok(await comment(alice, p.id, { body: 'reply', parent_comment_id: c1.comment.id }), 201).comment;
    const r2 = ok(await comment(bob, p.id, { body: 'deeper', parent_comment_id: r1.id }), 201).comment;
    const r3 = ok(await comment(alice, p.id, { body: 'deepest', parent_comment_id: r2.id }), 201).comment;
    const c2 = ok(await comment(alice, p.id, { body: 'second top' }), 201).comment;
    ok(await comment(bob, p.id, { body: 'another reply', parent_comment_id: c1.comment.id }), 201);

    expect(ok(await call('GET', `/v1/posts/${p.id}`)).post.comments_count).toBe(6);
    const list = ok(await call('GET', `/v1/posts/${p.id}/comments`));
    expect(list.next_cursor).toBeNull();
    expect(list.items.map((i: any) => i.comment.body)).toEqual([
      'first',
      'reply',
      'deeper',
      'deepest',
      'second top',
      'another reply',
    ]);
    const byId = new Map(list.items.map((i: any) => [i.comment.id, i]));
    expect((byId.get(c1.comment.id) as any).comment.replies_count).toBe(2);
    expect((byId.get(r1.id) as any).comment).toMatchObject({ parent_comment_id: c1.comment.id, replies_count: 1 });
    expect((byId.get(r3.id) as any).comment).toMatchObject({ parent_comment_id: r2.id, replies_count: 0 });
    expect((byId.get(c2.id) as any).comment.parent_comment_id).toBeNull();
    expect((byId.get(r1.id) as any).profile.id).toBe(alice.profile.id);
  });

  it('paginates the comment list with limit and cursor', async () => {
    const { post: p } = await post(alice, { body: 'many' });
    for (let i = 0; i < 5; i++) ok(await comment(bob, p.id, { body: `c${i}` }), 201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = ok(await call('GET', `/v1/posts/${p.id}/comments?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i: any) => i.comment.body));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    // a cursor of another list is refused
    const other = await post(alice, { body: 'other' });
    const first = ok(await call('GET', `/v1/posts/${p.id}/comments?limit=1`));
    expectError(
      await call('GET', `/v1/posts/${other.post.id}/comments?cursor=${first.next_cursor}`),
      400,
      'invalid_request',
    );
  });

  it('a parent comment of another post is 400; an unknown parent 404; unknown, draft and removed posts 404', async () => {
    const { post: p1 } = await post(alice, { body: 'one' });
    const { post: p2 } = await post(alice, { body: 'two' });
    const onP1 = ok(await comment(bob, p1.id, { body: 'on p1' }), 201).comment;
    const wrong = expectError(
      await comment(bob, p2.id, { body: 'x', parent_comment_id: onP1.id }),
      400,
      'invalid_request',
    );
    expect(wrong.agent.hint).toContain('parent_comment_id');
    expectError(await comment(bob, p2.id, { body: 'x', parent_comment_id: randomUUID() }), 404, 'not_found');
    expectError(await comment(bob, p2.id, { body: 'x', parent_comment_id: 'bad' }), 400, 'invalid_request');
    expectError(await comment(bob, randomUUID(), { body: 'x' }), 404, 'not_found');
    expectError(await comment(bob, 'bad-id', { body: 'x' }), 400, 'invalid_request');
    expectError(await comment(bob, p1.id, { body: '' }), 400, 'invalid_request');
    expectError(await comment(bob, p1.id, { body: 'x'.repeat(2001) }), 400, 'invalid_request');
    const { post: draft } = await post(alice, { body: 'd', status: 'draft' });
    expectError(await comment(bob, draft.id, { body: 'x' }), 404, 'not_found');
    expectError(await call('GET', `/v1/posts/${draft.id}/comments`), 404, 'not_found');
    ok(await call('DELETE', `/v1/posts/${p1.id}`, { token: alice.key, profileId: alice.profile.id }));
    expectError(await comment(bob, p1.id, { body: 'x' }), 404, 'not_found');
    expectError(await call('GET', `/v1/posts/${p1.id}/comments`), 404, 'not_found');
    expectError(await call('GET', `/v1/posts/${randomUUID()}/comments`), 404, 'not_found');
    // counts untouched by the refused comments
    expect(ok(await call('GET', `/v1/posts/${p2.id}`)).post.comments_count).toBe(0);
  });

  it('scope, acting profile and other-workspace credentials are enforced', async () => {
    const { post: p } = await post(alice, { body: 'guarded' });
    const { key } = await createApiKey(bob.session, bob.workspaceId, ['posts:write'], [bob.profile.id]);
    expectError(
      await call('POST', `/v1/posts/${p.id}/comments`, { token: key, profileId: bob.profile.id, body: { body: 'x' } }),
      403,
      'insufficient_scope',
    );
    expectError(
      await call('POST', `/v1/posts/${p.id}/comments`, {
        token: bob.key,
        profileId: alice.profile.id,
        body: { body: 'x' },
      }),
      403,
      'profile_not_permitted',
    );
    expectError(
      await call('POST', `/v1/posts/${p.id}/comments`, {
        token: bob.session,
        profileId: alice.profile.id,
        body: { body: 'x' },
      }),
      403,
      'profile_not_permitted',
    );
    expectError(
      await call('POST', `/v1/posts/${p.id}/comments`, { body: { body: 'x' }, profileId: bob.profile.id }),
      401,
      'unauthorized',
    );
  });
});
