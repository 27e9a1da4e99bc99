import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../shared/store/keys.js';
import { db } from '../../shared/store/client.js';
import { call, unique } from '../support/api.js';
import { feedIds, feedUntil, follow, network, publish, readFeed, unfollow, type Person } from '../support/feed.js';
import { TEST_SERVER_SETTINGS } from '../support/global-setup.js';
import { ok } from '../support/social.js';
import { dedicatedServer } from '../support/webhooks.js';

// A server of its own where an author with more than 2 followers is merged at read time.
const env = {
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  TABLE_NAME: unique('feed_large'),
  ...TEST_SERVER_SETTINGS,
  FEED_FANOUT_MAX_FOLLOWERS: '2',
};
const server = dedicatedServer(env);
const PROMISED_MS = 5000;

/** The reader's inbox item of the post, if it was fanned out (an item of its own), as opposed to merged at read time. */
async function inboxItem(reader: Person, post: { id: string; [field: string]: unknown }) {
  const { Item } = await db().send(
    new GetCommand({
      TableName: env.TABLE_NAME,
      Key: keys.feedEntry(reader.id, post.published_at as string, post.id),
      ConsistentRead: true,
    }),
  );
  return Item;
}

describe('GET /v1/feed with an author above FEED_FANOUT_MAX_FOLLOWERS', () => {
  it("merges the author's posts at read time for its followers, new ones included, and stops at an unfollow", async () => {
    const net = await network(6, server.baseUrl);
    const [celebrity, first, second, third, late, small] = net.people as [
      Person,
      Person,
      Person,
      Person,
      Person,
      Person,
    ];
    for (const reader of [first, second, third]) await follow(net, reader, celebrity);
    await follow(net, first, small);

    const before = await publish(net, celebrity, { body: 'To three followers: too many to fan out' });
    for (const reader of [first, second, third])
      await feedUntil(net, reader, (ids) => ids.includes(before.id), PROMISED_MS);
    const after = await publish(net, celebrity, { body: 'Read from my own posts' });
    const fromSmall = await publish(net, small, { body: 'Fanned out as usual' });
    const { ids } = await feedUntil(net, first, (ids) => ids.length === 3, PROMISED_MS);
    expect(ids).toEqual([fromSmall.id, after.id, before.id]);
    // The fanned-out entry names no author; the read-time author's post has no entry at all.
    const entry = await inboxItem(first, fromSmall);
    expect(entry).toMatchObject({ post_id: fromSmall.id, published_at: fromSmall.published_at });
    expect(JSON.stringify(entry)).not.toContain(small.id);
    expect(await inboxItem(first, after)).toBeUndefined();
    // The author's own entry (its own feed shows the post once it is written) marks itself.
    await feedUntil(net, small, (ids) => ids.includes(fromSmall.id), PROMISED_MS);
    expect(await inboxItem(small, fromSmall)).toMatchObject({ post_id: fromSmall.id, own: true });
    // The author's own feed has its own posts, as every author's does.
    await feedUntil(net, celebrity, (ids) => ids[0] === after.id && ids[1] === before.id, PROMISED_MS);

    // Pages run across the inbox and the author's posts alike.
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = ok(await readFeed(net, first, query));
      pages.push(page.items.map((item) => item.post.id));
      cursor = page.next_cursor;
    } while (cursor && pages.length < 10);
    expect(pages.flat()).toEqual([fromSmall.id, after.id, before.id]);

    // A new follower gets the author merged in; a follower who leaves no longer sees it.
    await follow(net, late, celebrity);
    await feedUntil(net, late, (ids) => ids.length === 2, PROMISED_MS);
    expect(await feedIds(net, late)).toEqual([after.id, before.id]);
    await unfollow(net, third, celebrity);
    expect(await feedIds(net, third)).toEqual([]);
    expect(await feedIds(net, third)).toEqual([]);

    // A removed post of the author is gone from every follower's next read.
    ok(
      await call('DELETE', `/v1/posts/${after.id}`, { baseUrl: net.baseUrl, token: net.key, profileId: celebrity.id }),
    );
    expect(await feedIds(net, second)).toEqual([before.id]);
  });
});
