import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, expectError } from '../support/api.js';
import { actor, ok, post, settledCount, type Actor } from '../support/social.js';
import { readyMedia, solidImage } from '../support/uploads.js';

const POST_FIELDS = [
  'id',
  'profile_id',
  'kind',
  'body_preview',
  'body_truncated',
  'images',
  'image_count',
  'reply_to_post_id',
  'root_post_id',
  'quoted_post_id',
  'visibility',
  'status',
  'published_at',
  'reply_count',
  'likes_count',
  'viewer_reaction',
  'comments_count',
  'quotes_count',
  'created_at',
  'updated_at',
  'edited_at',
  'body',
  'removed_by',
  'reply_policy',
  'hashtags',
  'automated',
  'via',
].sort();

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([actor(), actor()]);
});

describe('posts', () => {
  it('creates a published post with images and reads it publicly with every field of the Post table', async () => {
    const body = 'x'.repeat(300);
    const [chart, wide] = await Promise.all([
      readyMedia(alice, 'post_image', await solidImage(800, 600)),
      readyMedia(alice, 'post_image', await solidImage(3000, 1000)),
    ]);
    const created = await post(alice, {
      body,
      images: [{ media_id: chart.id, alt_text: 'A chart' }, { media_id: wide.id }],
    });
    expect(created.profile.id).toBe(alice.profile.id);
    const read = ok(await call('GET', `/v1/posts/${created.post.id}`));
    expect(Object.keys(read.post).sort()).toEqual(POST_FIELDS);
    expect(read.post).toMatchObject({
      profile_id: alice.profile.id,
      kind: 'post',
      body,
      body_truncated: true,
      image_count: 2,
      reply_to_post_id: null,
      root_post_id: null,
      quoted_post_id: null,
      visibility: 'public',
      status: 'published',
      reply_count: 0,
      likes_count: 0,
      viewer_reaction: null,
      comments_count: 0,
      quotes_count: 0,
    });
    expect(read.post.body_preview).toBe('x'.repeat(280));
    expect(read.post.published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(read.post.images[0]).toEqual({
      id: chart.id,
      url: chart.urls.large_url,
      width: 800,
      height: 600,
      alt_text: 'A chart',
    });
    // the large file: its longest side at most 2048
    expect(read.post.images[1]).toEqual({
      id: wide.id,
      url: wide.urls.large_url,
      width: 2048,
      height: wide.height,
      alt_text: null,
    });
    expect(Math.abs(wide.height - 683)).toBeLessThanOrEqual(1);
    expect(read.profile).toMatchObject({ id: alice.profile.id, username: alice.profile.username });
  });

  it('a short body is not truncated', async () => {
    const { post: p } = await post(alice, { body: 'hello world' });
    expect(p).toMatchObject({ body_preview: 'hello world', body_truncated: false, images: [], image_count: 0 });
  });

  it('a draft is 404 to others, visible to its author, and publishing it lists it on the profile', async () => {
    const { post: draft } = await post(alice, { body: 'draft text', status: 'draft' });
    expect(draft).toMatchObject({ status: 'draft', published_at: null });
    expectError(await call('GET', `/v1/posts/${draft.id}`), 404, 'not_found');
    expectError(
      await call('GET', `/v1/posts/${draft.id}`, { token: bob.key, profileId: bob.profile.id }),
      404,
      'not_found',
    );
    expect(
      ok(await call('GET', `/v1/posts/${draft.id}`, { token: alice.key, profileId: alice.profile.id })).post.status,
    ).toBe('draft');
    let list = ok(await call('GET', `/v1/profiles/${alice.profile.id}/posts`));
    expect(list.items.map((i: any) => i.post.id)).not.toContain(draft.id);

    // someone else cannot publish it
    expectError(
      await call('PATCH', `/v1/posts/${draft.id}`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { status: 'published' },
      }),
      404,
      'not_found',
    );
    const published = ok(
      await call('PATCH', `/v1/posts/${draft.id}`, {
        token: alice.key,
        profileId: alice.profile.id,
        body: { status: 'published', body: 'final text' },
      }),
    );
    expect(published.post).toMatchObject({ status: 'published', body: 'final text' });
    expect(published.post.published_at).not.toBeNull();
    expect(ok(await call('GET', `/v1/posts/${draft.id}`)).post.body).toBe('final text');
    list = ok(await call('GET', `/v1/profiles/${alice.profile.id}/posts`));
    expect(list.items[0].post.id).toBe(draft.id);
  });

  it('editing a published post is for its author only', async () => {
    const { post: p } = await post(alice, { body: 'v1' });
    expectError(
      await call('PATCH', `/v1/posts/${p.id}`, { token: bob.key, profileId: bob.profile.id, body: { body: 'hijack' } }),
      403,
      'forbidden',
    );
    const edited = ok(
      await call('PATCH', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id, body: { body: 'v2' } }),
    );
    expect(edited.post.body).toBe('v2');
    expectError(
      await call('PATCH', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id, body: {} }),
      400,
      'invalid_request',
    );
  });

  it('a removed post is 404 to others, still readable by its author, and leaves the profile list', async () => {
    const { post: p } = await post(alice, { body: 'to remove' });
    expectError(
      await call('DELETE', `/v1/posts/${p.id}`, { token: bob.key, profileId: bob.profile.id }),
      403,
      'forbidden',
    );
    const removed = ok(await call('DELETE', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id }));
    expect(removed.post.status).toBe('removed');
    // again: idempotent
    expect(
      ok(await call('DELETE', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id })).post.status,
    ).toBe('removed');
    expectError(await call('GET', `/v1/posts/${p.id}`), 404, 'not_found');
    expectError(
      await call('GET', `/v1/posts/${p.id}`, { token: bob.key, profileId: bob.profile.id }),
      404,
      'not_found',
    );
    expect(
      ok(await call('GET', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id })).post.status,
    ).toBe('removed');
    const list = ok(await call('GET', `/v1/profiles/${alice.profile.id}/posts?limit=100`));
    expect(list.items.map((i: any) => i.post.id)).not.toContain(p.id);
    expectError(
      await call('PATCH', `/v1/posts/${p.id}`, { token: alice.key, profileId: alice.profile.id, body: { body: 'x' } }),
      409,
      'invalid_state',
    );
  });

  it('replies: kind reply, root of the thread, parent reply_count; replying to removed, draft or missing posts is 404', async () => {
    const { post: root } = await post(alice, { body: 'root' });
    const { post: r1 } = await post(bob, { body: 'reply 1', reply_to_post_id: root.id });
    expect(r1).toMatchObject({ kind: 'reply', reply_to_post_id: root.id, root_post_id: root.id });
    const { post: r2 } = await post(alice, { body: 'reply 2', reply_to_post_id: r1.id });
    expect(r2).toMatchObject({ kind: 'reply', reply_to_post_id: r1.id, root_post_id: root.id });
    expect(ok(await call('GET', `/v1/posts/${root.id}`)).post.reply_count).toBe(1);
    expect(ok(await call('GET', `/v1/posts/${r1.id}`)).post.reply_count).toBe(1);

    // a draft reply counts once published
    const { post: draftReply } = await post(bob, { body: 'later', reply_to_post_id: root.id, status: 'draft' });
    expect(ok(await call('GET', `/v1/posts/${root.id}`)).post.reply_count).toBe(1);
    ok(
      await call('PATCH', `/v1/posts/${draftReply.id}`, {
        token: bob.key,
        profileId: bob.profile.id,
        body: { status: 'published' },
      }),
    );
    expect(ok(await call('GET', `/v1/posts/${root.id}`)).post.reply_count).toBe(2);
    // removing a published reply un-counts it
    ok(await call('DELETE', `/v1/posts/${draftReply.id}`, { token: bob.key, profileId: bob.profile.id }));
    expect(ok(await call('GET', `/v1/posts/${root.id}`)).post.reply_count).toBe(1);

    const { post: gone } = await post(alice, { body: 'gone' });
    ok(await call('DELETE', `/v1/posts/${gone.id}`, { token: alice.key, profileId: alice.profile.id }));
    expectError(
      await call('POST', '/v1/posts', {
        token: bob.key,
        profileId: bob.profile.id,
        body: { body: 'r', reply_to_post_id: gone.id },
      }),
      404,
      'not_found',
    );
    const { post: draft } = await post(alice, { body: 'd', status: 'draft' });
    expectError(
      await call('POST', '/v1/posts', {
        token: bob.key,
        profileId: bob.profile.id,
        body: { body: 'r', reply_to_post_id: draft.id },
      }),
      404,
      'not_found',
    );
    expectError(
      await call('POST', '/v1/posts', {
        token: bob.key,
        profileId: bob.profile.id,
        body: { body: 'r', reply_to_post_id: randomUUID() },
      }),
      404,
      'not_found',
    );
  });

  it("lists a profile's published posts newest first, paginated", async () => {
    const carol = await actor();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(carol, { body: `post ${i}` })).post.id);
    const first = ok(await call('GET', `/v1/profiles/${carol.profile.id}/posts?limit=2`));
    expect(first.items.map((i: any) => i.post.id)).toEqual([ids[4], ids[3]]);
    expect(first.items[0].profile.id).toBe(carol.profile.id);
    const second = ok(await call('GET', `/v1/profiles/${carol.profile.id}/posts?limit=2&cursor=${first.next_cursor}`));
    const third = ok(await call('GET', `/v1/profiles/${carol.profile.id}/posts?limit=2&cursor=${second.next_cursor}`));
    expect([...second.items, ...third.items].map((i: any) => i.post.id)).toEqual([ids[2], ids[1], ids[0]]);
    expectError(await call('GET', `/v1/profiles/${randomUUID()}/posts`), 404, 'not_found');
    expectError(await call('GET', `/v1/profiles/${carol.profile.id}/posts?limit=0`), 400, 'invalid_request');
    expectError(await call('GET', `/v1/profiles/${carol.profile.id}/posts?cursor=garbage`), 400, 'invalid_request');
  });

  describe('bad input and access', () => {
    const create = (a: Actor, body: unknown, headers: { token?: string; profileId?: string } = {}) =>
      call('POST', '/v1/posts', { token: headers.token ?? a.key, profileId: headers.profileId ?? a.profile.id, body });

    it('rejects a fifth image, a repeated media, the url form of 0.1.0, an empty body and unknown fields', async () => {
      const ids = Array.from({ length: 5 }, () => ({ media_id: randomUUID() }));
      const fifth = expectError(await create(alice, { body: 'b', images: ids }), 400, 'invalid_request');
      expect(fifth.agent.hint).toContain('images');
      const repeated = expectError(
        await create(alice, { body: 'b', images: [ids[0], { ...ids[0], alt_text: 'again' }] }),
        400,
        'invalid_request',
      );
      expect(repeated.agent.hint).toContain('must not repeat a media_id');
      const urlForm = expectError(
        await create(alice, { body: 'b', images: [{ url: 'https://img.example.com/x.png', width: 10, height: 10 }] }),
        400,
        'invalid_request',
      );
      expect(urlForm.agent.hint).toContain('allowed: media_id, alt_text');
      expectError(await create(alice, { body: 'b', images: [{ media_id: 'nope' }] }), 400, 'invalid_request');
      expectError(await create(alice, { body: '' }), 400, 'invalid_request');
      expectError(await create(alice, { body: 'x'.repeat(5001) }), 400, 'invalid_request');
      expectError(await create(alice, { body: 'b', extra: 1 }), 400, 'invalid_request');
      expectError(await create(alice, { body: 'b', status: 'removed' }), 400, 'invalid_request');
    });

    it('unknown or malformed post ids are 404 / 400', async () => {
      expectError(await call('GET', `/v1/posts/${randomUUID()}`), 404, 'not_found');
      expectError(await call('GET', '/v1/posts/not-a-uuid'), 400, 'invalid_request');
      expectError(
        await call('PATCH', `/v1/posts/${randomUUID()}`, {
          token: alice.key,
          profileId: alice.profile.id,
          body: { body: 'x' },
        }),
        404,
        'not_found',
      );
      expectError(
        await call('DELETE', '/v1/posts/123', { token: alice.key, profileId: alice.profile.id }),
        400,
        'invalid_request',
      );
      expectError(await call('GET', '/v1/posts/x', { headers: { 'x-profile-id': 'nope' } }), 400, 'invalid_request');
    });

    it('acting as a profile the key does not have is 403 profile_not_permitted; no X-Profile-Id is 400', async () => {
      expectError(await create(alice, { body: 'b' }, { profileId: bob.profile.id }), 403, 'profile_not_permitted');
      expectError(await create(alice, { body: 'b' }, { profileId: randomUUID() }), 403, 'profile_not_permitted');
      expectError(await call('POST', '/v1/posts', { token: alice.key, body: { body: 'b' } }), 400, 'invalid_request');
      expectError(
        await call('POST', '/v1/posts', { profileId: alice.profile.id, body: { body: 'b' } }),
        401,
        'unauthorized',
      );
    });

    it("a credential of another workspace cannot write as, or remove posts of, this workspace's profiles", async () => {
      const { post: p } = await post(alice, { body: 'mine' });
      // bob's session (another workspace) acting as alice's profile
      expectError(
        await create(alice, { body: 'b' }, { token: bob.session, profileId: alice.profile.id }),
        403,
        'profile_not_permitted',
      );
      expectError(
        await call('DELETE', `/v1/posts/${p.id}`, { token: bob.key, profileId: alice.profile.id }),
        403,
        'profile_not_permitted',
      );
      expectError(
        await call('PUT', `/v1/posts/${p.id}/reaction`, {
          token: bob.session,
          profileId: alice.profile.id,
          body: { reaction_type: 'like', active: true },
        }),
        403,
        'profile_not_permitted',
      );
      // alice's session may act as her own profile
      expect(ok(await create(alice, { body: 'by session' }, { token: alice.session }), 201).post.profile_id).toBe(
        alice.profile.id,
      );
    });

    it('a key without posts:write is 403 insufficient_scope', async () => {
      const { key } = await createApiKey(alice.session, alice.workspaceId, ['posts:read'], [alice.profile.id]);
      expectError(await create(alice, { body: 'b' }, { token: key }), 403, 'insufficient_scope');
    });

    it('the public read with X-Profile-Id of a profile the credential may not act as is 403', async () => {
      const { post: p } = await post(alice, { body: 'pub' });
      expectError(
        await call('GET', `/v1/posts/${p.id}`, { token: bob.key, profileId: alice.profile.id }),
        403,
        'profile_not_permitted',
      );
      expectError(
        await call('GET', `/v1/posts/${p.id}/comments`, { token: bob.key, profileId: alice.profile.id }),
        403,
        'profile_not_permitted',
      );
    });

    it('an invalid credential on the public read is 401', async () => {
      const { post: p } = await post(alice, { body: 'pub' });
      expectError(await call('GET', `/v1/posts/${p.id}`, { token: 'sk_bogus' }), 401, 'unauthorized');
      // X-Profile-Id without a credential is simply anonymous
      expect(
        ok(await call('GET', `/v1/posts/${p.id}`, { profileId: alice.profile.id })).post.viewer_reaction,
      ).toBeNull();
    });
  });

  it('a second profile of the same workspace posts through the session', async () => {
    const other = await createProfile(alice.session);
    const created = ok(
      await call('POST', '/v1/posts', { token: alice.session, profileId: other.id, body: { body: 'second profile' } }),
      201,
    );
    expect(created.profile.id).toBe(other.id);
  });
});

describe('quote posts', () => {
  const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });
  const quotesCount = async (id: string) => ok(await call('GET', `/v1/posts/${id}`)).post.quotes_count as number;
  const quoteIds = async (id: string, query = '') =>
    ok(await call('GET', `/v1/posts/${id}/quotes${query}`)).items.map((i: any) => i.post.id as string);

  it('a quote is a post of its own that names the quoted post, counts on it and is listed under it with its author', async () => {
    const { post: original } = await post(alice, { body: 'original' });
    const quote = await post(bob, { body: 'worth reading', quote_of_post_id: original.id });
    expect(quote.post).toMatchObject({
      kind: 'post',
      quoted_post_id: original.id,
      reply_to_post_id: null,
      root_post_id: null,
      quotes_count: 0,
    });
    expect(ok(await call('GET', `/v1/posts/${quote.post.id}`)).post.quoted_post_id).toBe(original.id);
    expect(await settledCount('quotes', () => quotesCount(original.id), 1)).toBe(1);
    // a self-quote counts as well
    await post(alice, { body: 'me again', quote_of_post_id: original.id });
    expect(await settledCount('quotes', () => quotesCount(original.id), 2)).toBe(2);

    const list = ok(await call('GET', `/v1/posts/${original.id}/quotes`));
    expect(list.next_cursor).toBeNull();
    expect(list.items).toHaveLength(2);
    expect(list.items[1].post).toMatchObject({ id: quote.post.id, quoted_post_id: original.id, viewer_reaction: null });
    expect(list.items[1].profile).toMatchObject({ id: bob.profile.id, username: bob.profile.username });
    expect(list.items[0].profile.id).toBe(alice.profile.id);
    // quoting a quote and quoting a reply are fine: each counts on the post it names only
    const { post: ofQuote } = await post(alice, { body: 'quote of a quote', quote_of_post_id: quote.post.id });
    expect(await settledCount('quotes', () => quotesCount(quote.post.id), 1)).toBe(1);
    expect(await settledCount('quotes', () => quotesCount(original.id), 2)).toBe(2);
    const { post: reply } = await post(bob, { body: 'a reply', reply_to_post_id: original.id });
    const { post: ofReply } = await post(alice, { body: 'quoting a reply', quote_of_post_id: reply.id });
    expect(ofReply).toMatchObject({ kind: 'post', quoted_post_id: reply.id });
    expect(await quoteIds(reply.id)).toEqual([ofReply.id]);
    expect(await quoteIds(quote.post.id)).toEqual([ofQuote.id]);
    // a quote is in its author's posts
    const bobs = ok(await call('GET', `/v1/profiles/${bob.profile.id}/posts?limit=100`));
    expect(bobs.items.map((i: any) => i.post.id)).toContain(quote.post.id);
  });

  it('lists quotes newest first, paginated, with the viewer reaction when a profile reads', async () => {
    const { post: original } = await post(alice, { body: 'popular' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await post(bob, { body: `quote ${i}`, quote_of_post_id: original.id })).post.id);
    const first = ok(await call('GET', `/v1/posts/${original.id}/quotes?limit=2`));
    expect(first.items.map((i: any) => i.post.id)).toEqual([ids[4], ids[3]]);
    const rest = ok(await call('GET', `/v1/posts/${original.id}/quotes?limit=10&cursor=${first.next_cursor}`));
    expect(rest.items.map((i: any) => i.post.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.next_cursor).toBeNull();

    ok(
      await call('PUT', `/v1/posts/${ids[4]}/reaction`, {
        ...as(alice),
        body: { reaction_type: 'like', active: true },
      }),
    );
    const seen = ok(await call('GET', `/v1/posts/${original.id}/quotes?limit=2`, as(alice)));
    expect(seen.items.map((i: any) => i.post.viewer_reaction)).toEqual(['like', null]);
    // a cursor of another list is refused
    const other = await post(alice, { body: 'other' });
    expectError(
      await call('GET', `/v1/posts/${other.post.id}/quotes?cursor=${first.next_cursor}`),
      400,
      'invalid_request',
    );
  });

  it('a draft quote counts and is listed once published; a removed quote is uncounted and unlisted', async () => {
    const { post: original } = await post(alice, { body: 'original' });
    const { post: draft } = await post(bob, { body: 'thinking', quote_of_post_id: original.id, status: 'draft' });
    expect(draft).toMatchObject({ status: 'draft', quoted_post_id: original.id });
    expect(await settledCount('quotes', () => quotesCount(original.id), 0)).toBe(0);
    expect(await quoteIds(original.id)).toEqual([]);

    ok(await call('PATCH', `/v1/posts/${draft.id}`, { ...as(bob), body: { status: 'published' } }));
    expect(await settledCount('quotes', () => quotesCount(original.id), 1)).toBe(1);
    expect(await quoteIds(original.id)).toEqual([draft.id]);
    // publishing again (a published post) counts nothing twice
    ok(await call('PATCH', `/v1/posts/${draft.id}`, { ...as(bob), body: { status: 'published', body: 'edited' } }));
    expect(await settledCount('quotes', () => quotesCount(original.id), 1)).toBe(1);

    ok(await call('DELETE', `/v1/posts/${draft.id}`, as(bob)));
    expect(await settledCount('quotes', () => quotesCount(original.id), 0)).toBe(0);
    expect(await quoteIds(original.id)).toEqual([]);
    // removing it again changes nothing
    ok(await call('DELETE', `/v1/posts/${draft.id}`, as(bob)));
    expect(await settledCount('quotes', () => quotesCount(original.id), 0)).toBe(0);

    // a removed draft quote never counted, so its removal uncounts nothing
    await post(bob, { body: 'stays', quote_of_post_id: original.id });
    const { post: unpublished } = await post(bob, { body: 'never', quote_of_post_id: original.id, status: 'draft' });
    ok(await call('DELETE', `/v1/posts/${unpublished.id}`, as(bob)));
    expect(await settledCount('quotes', () => quotesCount(original.id), 1)).toBe(1);
  });

  it('quoting a draft, removed or unknown post is 404; so is publishing a draft quote of a post removed since', async () => {
    const { post: draft } = await post(alice, { body: 'draft', status: 'draft' });
    const { post: removed } = await post(alice, { body: 'removed' });
    ok(await call('DELETE', `/v1/posts/${removed.id}`, as(alice)));
    for (const id of [draft.id, removed.id, randomUUID()]) {
      const refused = expectError(
        await call('POST', '/v1/posts', { ...as(bob), body: { body: 'q', quote_of_post_id: id } }),
        404,
        'not_found',
      );
      expect(refused.agent.hint).toContain('quote_of_post_id');
    }
    // the author of the draft cannot quote it either
    expectError(
      await call('POST', '/v1/posts', { ...as(alice), body: { body: 'q', quote_of_post_id: draft.id } }),
      404,
      'not_found',
    );

    const { post: original } = await post(alice, { body: 'soon removed' });
    const { post: later } = await post(bob, { body: 'later', quote_of_post_id: original.id, status: 'draft' });
    ok(await call('DELETE', `/v1/posts/${original.id}`, as(alice)));
    expectError(
      await call('PATCH', `/v1/posts/${later.id}`, { ...as(bob), body: { status: 'published' } }),
      404,
      'not_found',
    );
    expect(ok(await call('GET', `/v1/posts/${later.id}`, as(bob))).post.status).toBe('draft');
  });

  it('a post replies or quotes, not both (400); the quotes of a draft, removed or unknown post are 404', async () => {
    const { post: original } = await post(alice, { body: 'original' });
    const both = expectError(
      await call('POST', '/v1/posts', {
        ...as(bob),
        body: { body: 'q', quote_of_post_id: original.id, reply_to_post_id: original.id },
      }),
      400,
      'invalid_request',
    );
    expect(both.agent.hint).toContain('quote_of_post_id');
    expectError(
      await call('POST', '/v1/posts', { ...as(bob), body: { body: 'q', quote_of_post_id: 'nope' } }),
      400,
      'invalid_request',
    );

    await post(bob, { body: 'a quote', quote_of_post_id: original.id });
    ok(await call('DELETE', `/v1/posts/${original.id}`, as(alice)));
    expectError(await call('GET', `/v1/posts/${original.id}/quotes`), 404, 'not_found');
    const { post: draft } = await post(alice, { body: 'draft', status: 'draft' });
    expectError(await call('GET', `/v1/posts/${draft.id}/quotes`, as(alice)), 404, 'not_found');
    expectError(await call('GET', `/v1/posts/${randomUUID()}/quotes`), 404, 'not_found');
    expectError(await call('GET', '/v1/posts/not-a-uuid/quotes'), 400, 'invalid_request');
    expectError(await call('GET', `/v1/posts/${draft.id}/quotes?limit=101`), 400, 'invalid_request');
  });
});

describe('the author card a post carries', () => {
  it('follows a profile edit within a few seconds (the stream refreshes it), and the author sees the edit at once', async () => {
    const author = await actor();
    const { post: published } = await post(author, { body: 'card test' });
    const { post: draft } = await post(author, { body: 'draft card test', status: 'draft' });
    expect(ok(await call('GET', `/v1/posts/${published.id}`)).profile.name).toBe(author.profile.name);

    const name = `Renamed ${randomUUID().slice(0, 8)}`;
    ok(await call('PATCH', `/v1/profiles/${author.profile.id}`, { token: author.session, body: { name } }));
    // The author reading as themselves gets their current profile, not the card.
    expect(
      ok(await call('GET', `/v1/posts/${published.id}`, { token: author.key, profileId: author.profile.id })).profile
        .name,
    ).toBe(name);

    const started = Date.now();
    let seen = '';
    while (Date.now() - started < 5000) {
      seen = ok(await call('GET', `/v1/posts/${published.id}`)).profile.name;
      if (seen === name) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBe(name);
    // A draft published after the edit carries the current card from the start.
    ok(
      await call('PATCH', `/v1/posts/${draft.id}`, {
        token: author.key,
        profileId: author.profile.id,
        body: { status: 'published' },
      }),
    );
    expect(ok(await call('GET', `/v1/posts/${draft.id}`)).profile.name).toBe(name);
  });
});
