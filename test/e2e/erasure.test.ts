import { beforeAll, describe, expect, it } from 'vitest';
import {
  busyAccount,
  erasureServer,
  until,
  exportTraces,
  mediaTraces,
  scanTable,
  searchTraces,
  tableTraces,
  type BusyAccount,
  type Client,
  type Person,
} from '../support/erasure.js';

const stack = erasureServer('erasure');
const { env, dataDir } = stack;
let c: Client;
beforeAll(() => {
  c = stack.client;
});

/** The other's counts the subject's likes, replies, comments, quotes and follows moved. */
async function othersCounts(account: BusyAccount) {
  const post = (await c.send('GET', `/v1/posts/${account.othersPost}`)).body.data.post;
  const profile = (await c.send('GET', `/v1/profiles/${account.other.profile.id}`)).body.data;
  return {
    likes: post.likes_count as number,
    replies: post.reply_count as number,
    comments: post.comments_count as number,
    quotes: post.quotes_count as number,
    followers: profile.followers_count as number,
    following: profile.following_count as number,
  };
}

/** The post ids of a profile's home feed (its first page). */
async function feedPostIds(p: Person): Promise<string[]> {
  const page = await c.send('GET', '/v1/feed?limit=50', c.as(p));
  expect(page.status).toBe(200);
  return (page.body.data.items as { post: { id: string } }[]).map((i) => i.post.id);
}

/** The feed.post events of a profile's event log (its first page). */
async function feedEvents(p: Person): Promise<unknown[]> {
  const read = await c.send('GET', '/v1/events?types=feed.post', c.as(p));
  expect(read.status).toBe(200);
  return read.body.data.items as unknown[];
}

describe('erasing a busy account', () => {
  it('leaves no trace of it in the table, the search index or the media store but its tombstone', async () => {
    const account = await busyAccount(c);
    const { subject } = account;
    // The pipelines have done their part: the subject's post is in search, the counts are folded.
    await until(
      'search documents',
      async () => searchTraces(dataDir, account).length,
      (n) => n > 0,
    );
    const before = await until(
      'the counts',
      () => othersCounts(account),
      (n) => n.likes === 1 && n.followers === 1,
    );
    expect(before).toMatchObject({ likes: 1, replies: 1, comments: 1, quotes: 1, followers: 1, following: 1 });
    // The follower's feed holds the subject's four feed posts (a reply and a draft are in no feed), in its
    // inbox and as feed.post events in its log.
    const followersFeed = await until(
      "the follower's feed",
      () => feedPostIds(account.follower),
      (ids) => ids.length === 4,
    );
    await until(
      "the follower's feed.post events",
      async () => (await feedEvents(account.follower)).length,
      (n) => n === 4,
    );
    expect(exportTraces(dataDir, account)).not.toEqual([]);

    const wrong = await c.send('DELETE', '/v1/me', {
      token: subject.session,
      body: { password: 'not it', when: 'now' },
    });
    expect(wrong.status).toBe(401);
    expect((await c.send('GET', '/v1/me', { token: subject.session })).status).toBe(200);

    const deleted = await c.send('DELETE', '/v1/me', {
      token: subject.session,
      body: { password: subject.password, when: 'now' },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.deletion.status).toBe('in_progress');
    expect((await c.send('GET', '/v1/me', { token: subject.session })).status).toBe(401);

    const traces = await until(
      'traces in the table',
      () => tableTraces(env.DYNAMODB_ENDPOINT, env.TABLE_NAME, account),
      (t) => t.length === 0,
    );
    expect(traces).toEqual([]);
    expect(searchTraces(dataDir, account)).toEqual([]);
    expect(mediaTraces(dataDir, account)).toEqual([]);
    expect(exportTraces(dataDir, account)).toEqual([]);

    // Those connected are told: profile.deleted to the other and the follower (the third's block ended its
    // follow), post.deleted to the other (the subject replied to and quoted its post), once each.
    const events = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter(
      (i) => i.entity === 'event' && (i.type === 'profile.deleted' || i.type === 'post.deleted'),
    );
    expect(events.map((e) => `${e.type as string} ${e.profile_id as string}`).sort()).toEqual(
      [
        `post.deleted ${account.other.profile.id}`,
        `post.deleted ${account.other.profile.id}`,
        `profile.deleted ${account.other.profile.id}`,
        `profile.deleted ${account.follower.profile.id}`,
      ].sort(),
    );
    expect(events.find((e) => e.type === 'profile.deleted')!.data).toMatchObject({
      profile_id: subject.profile.id,
      username: subject.profile.username,
    });

    // Others' counts follow; their reply to the subject's post stays.
    const after = await until(
      'the counts after',
      () => othersCounts(account),
      (n) => n.likes === 0 && n.followers === 0,
    );
    expect(after).toEqual({ likes: 0, replies: 0, comments: 0, quotes: 0, followers: 0, following: 0 });
    expect((await c.send('GET', `/v1/posts/${account.othersReply}`)).status).toBe(200);

    // The follower's feed and event log answer none of the erased posts, and the read leaves its inbox without them.
    expect(await feedPostIds(account.follower)).toEqual([]);
    expect(await feedEvents(account.follower)).toEqual([]);
    const inbox = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter(
      (i) => i.pk === `FEED#${account.follower.profile.id}`,
    );
    expect(inbox.filter((i) => followersFeed.includes(i.post_id as string))).toEqual([]);
    expect((await c.send('GET', `/v1/profiles/${subject.profile.id}`)).status).toBe(404);

    // The conversation the other started stays theirs: its own message in it, the subject read as deleted.
    const conversations = (await c.send('GET', '/v1/conversations', c.as(account.other))).body.data.items;
    expect(conversations).toEqual([
      expect.objectContaining({
        with: { id: subject.profile.id, deleted: true },
        unread_count: 0,
        last_message: expect.objectContaining({ body: expect.stringContaining("other's message") }),
      }),
    ]);
    const messages = await c.send('GET', `/v1/messages?with_profile_id=${subject.profile.id}`, c.as(account.other));
    expect(messages.body.data.items.map((m: { body: string }) => m.body)).toEqual([
      expect.stringContaining("other's message"),
    ]);

    // No credential works, and the username stays taken.
    expect((await c.send('GET', '/v1/me', { token: subject.session })).status).toBe(401);
    expect((await c.send('GET', '/v1/feed', { token: subject.key, profileId: subject.profile.id })).status).toBe(401);
    expect(
      (await c.send('POST', '/v1/sessions', { body: { email: subject.email, password: subject.password } })).status,
    ).toBe(401);
    const taken = await c.send('POST', '/v1/profiles', {
      token: account.other.session,
      body: { type: 'human', username: subject.profile.username, name: 'Someone', call_name: 'Some' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error_code).toBe('username_taken');
  }, 180_000);
});
