import { describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { as, feedIds, feedUntil, follow, network, publish, readFeed, unfollow, type Network } from '../support/feed.js';
import { ok } from '../support/social.js';

/** API.md: a followed author's new post is in the feed within 5 seconds. */
const PROMISED_MS = 5000;

describe('GET /v1/feed', () => {
  it("answers a followed profile's new post within 5 seconds, and the reader's own, and quotes; never replies or drafts", async () => {
    const net = await network(3);
    const [reader, author, stranger] = net.people as [Network['people'][0], Network['people'][0], Network['people'][0]];
    await follow(net, reader, author);
    const post = await publish(net, author, { body: 'Hello, followers' });
    const own = await publish(net, reader, { body: 'My own post' });
    const unrelated = await publish(net, stranger, { body: 'Nobody follows me here' });
    const reply = await publish(net, author, { body: 'A reply', reply_to_post_id: own.id });
    const draft = await publish(net, author, { body: 'Not yet', status: 'draft' });

    const { ids, ms } = await feedUntil(
      net,
      reader,
      (ids) => ids.includes(post.id) && ids.includes(own.id),
      PROMISED_MS,
    );
    expect(ms).toBeLessThan(PROMISED_MS);
    // Newest first, each once.
    expect(ids).toEqual([own.id, post.id]);
    for (const absent of [unrelated.id, reply.id, draft.id]) expect(ids).not.toContain(absent);

    // Publishing the draft brings it in, newest first; so does a quote (a post of kind `post`).
    ok(await call('PATCH', `/v1/posts/${draft.id}`, { ...as(net, author), body: { status: 'published' } }));
    await feedUntil(net, reader, (ids) => ids[0] === draft.id, PROMISED_MS);
    const quote = await publish(net, author, { body: 'Quoting this', quote_of_post_id: unrelated.id });
    await feedUntil(net, reader, (ids) => ids[0] === quote.id && ids[1] === draft.id, PROMISED_MS);
  });

  it('answers each item as { post, profile } with the reader’s viewer_reaction, exact at once after a like', async () => {
    const net = await network(2);
    const [reader, author] = net.people as [Network['people'][0], Network['people'][0]];
    await follow(net, reader, author);
    const post = await publish(net, author, { body: 'Like me' });
    await feedUntil(net, reader, (ids) => ids.includes(post.id), PROMISED_MS);
    ok(
      await call('PUT', `/v1/posts/${post.id}/reaction`, {
        ...as(net, reader),
        body: { reaction_type: 'like', active: true },
      }),
    );
    const page = ok(await readFeed(net, reader));
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.post).toMatchObject({ id: post.id, profile_id: author.id, viewer_reaction: 'like' });
    expect(page.items[0]!.profile.id).toBe(author.id);
    expect(page.next_cursor).toBeNull();
  });

  it('never answers a removed post or the posts of an unfollowed profile again, from the very next read', async () => {
    const net = await network(3);
    const [reader, kept, dropped] = net.people as [Network['people'][0], Network['people'][0], Network['people'][0]];
    await follow(net, reader, kept);
    await follow(net, reader, dropped);
    const removed = await publish(net, kept, { body: 'Soon gone' });
    const stays = await publish(net, kept, { body: 'Stays' });
    const fromDropped = await publish(net, dropped, { body: 'From the one unfollowed' });
    await feedUntil(
      net,
      reader,
      (ids) => [removed.id, stays.id, fromDropped.id].every((id) => ids.includes(id)),
      PROMISED_MS,
    );

    ok(await call('DELETE', `/v1/posts/${removed.id}`, as(net, kept)));
    await unfollow(net, reader, dropped);
    expect(await feedIds(net, reader)).toEqual([stays.id]);
    // Still gone on later reads (the stale entries were cleaned up behind the first one).
    expect(await feedIds(net, reader)).toEqual([stays.id]);
  });

  it('brings the recent posts of a newly followed profile into the feed', async () => {
    const net = await network(2);
    const [reader, author] = net.people as [Network['people'][0], Network['people'][0]];
    const earlier = [];
    for (let i = 0; i < 3; i++) earlier.push(await publish(net, author, { body: `Before the follow ${i}` }));
    await publish(net, author, { body: 'A reply to myself', reply_to_post_id: earlier[0]!.id });
    expect(await feedIds(net, reader)).toEqual([]);
    await follow(net, reader, author);
    const { ids } = await feedUntil(net, reader, (ids) => ids.length >= 3, PROMISED_MS);
    expect(ids).toEqual(earlier.map((p) => p.id).reverse());
  });

  it('pages newest first with an opaque cursor, each post once, ending with next_cursor null', async () => {
    const net = await network(2);
    const [reader, author] = net.people as [Network['people'][0], Network['people'][0]];
    await follow(net, reader, author);
    const posts = [];
    for (let i = 0; i < 5; i++) posts.push(await publish(net, author, { body: `Post ${i}` }));
    await feedUntil(net, reader, (ids) => ids.length === 5, PROMISED_MS);

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = ok(await readFeed(net, reader, query));
      pages.push(page.items.map((item) => item.post.id));
      cursor = page.next_cursor;
    } while (cursor && pages.length < 10);
    expect(pages).toEqual([[posts[4]!.id, posts[3]!.id], [posts[2]!.id, posts[1]!.id], [posts[0]!.id]]);
  });

  it('refuses a cursor it did not hand out, a limit out of range, no acting profile, and a key without posts:read', async () => {
    const net = await network(1);
    const [reader] = net.people as [Network['people'][0]];
    expectError(await readFeed(net, reader, '?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_request');
    expectError(await readFeed(net, reader, '?limit=101'), 400, 'invalid_request');
    expectError(await call('GET', '/v1/feed', { token: net.key }), 400, 'invalid_request');
    expectError(await call('GET', '/v1/feed'), 401, 'unauthorized');
    const { key: writer } = await createApiKey(net.owner.token, net.owner.workspaceId, ['posts:write'], [reader.id]);
    expectError(await call('GET', '/v1/feed', { token: writer, profileId: reader.id }), 403, 'insufficient_scope');
  });
});
