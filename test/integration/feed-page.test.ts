/**
 * What one feed page costs on DynamoDB Local, counted on the store's client: the inbox Query beside
 * the request's BatchGetItem (which carries the read-time authors), then one BatchGetItem of the
 * posts, then one of the follows of their authors (an entry names none); one Query more per
 * followed read-time author. And what a page leaves out and cleans up behind.
 */
import { NO_VIEWER_FILTER, newMute, viewerFilterOf, type ViewerFilter } from '../../shared/domain/safety.js';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import { newProfile, type ProfileRecord } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import { newPost, type PostRecord } from '../../shared/domain/posts.js';
import { newFollow } from '../../shared/domain/social.js';
import { fanOutPost } from '../../shared/feed/fan-out.js';
import { answerFeedPage, readFeedPage } from '../../shared/feed/read-page.js';
import type { FeedQueue } from '../../shared/ports/feed-queue.js';
import { db, tableName } from '../../shared/store/client.js';
import { addLargeAuthor, markReadTimeAuthor, putFeedEntry } from '../../shared/store/feed.js';
import { follow, unfollow } from '../../shared/store/follows.js';
import { keys } from '../../shared/store/keys.js';
import { createPost, erasedPostItems, removePost } from '../../shared/store/posts.js';
import { createProfile } from '../../shared/store/profiles.js';
import { ReadBatch } from '../../shared/store/read-batch.js';
import { loadSafetySets, mute, unmute } from '../../shared/store/safety.js';
import { transact } from '../../shared/store/transact.js';
import { unique } from '../support/api.js';
import { recordDynamoDbCalls, sequentialRoundTrips } from '../support/dynamodb-calls.js';
import { bySession } from '../support/disclosure.js';

beforeAll(async () => {
  process.env.TABLE_NAME = unique('feed_page');
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
});

async function profile(): Promise<ProfileRecord> {
  const p = newProfile(new Date(), {
    workspace_id: newId(),
    username: unique('page').toLowerCase(),
    type: 'human',
    name: 'Page Reader',
    call_name: 'Reader',
  });
  await createProfile(p);
  return p;
}

async function published(author: ProfileRecord): Promise<PostRecord> {
  const post = newPost(new Date(), author, { body: 'Hello', images: [], status: 'published' }, bySession);
  await createPost(post, author, [], []);
  return post;
}

/** Fan-outs handed straight to the writer's store call (the queue is not what these tests look at). */
const direct: FeedQueue = {
  send: async (messages) => {
    for (const m of messages) if (m.kind === 'post') await putFeedEntry(m.reader_ids, m);
  },
};
const fanOut = (post: PostRecord) =>
  fanOutPost({ post_id: post.id, author_id: post.profile_id, published_at: post.published_at! }, direct, {
    maxFollowers: 100,
  });

async function page(reader: ProfileRecord, viewer: ViewerFilter = NO_VIEWER_FILTER) {
  return answerFeedPage(await readFeedPage(reader.id, { limit: 20 }, new ReadBatch()), reader, viewer);
}

/** The post ids of the reader's inbox, newest first. */
async function inbox(reader: string): Promise<string[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.feedInbox(reader) },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => item.post_id as string);
}

const followAs = (reader: ProfileRecord, author: ProfileRecord) =>
  follow(newFollow(new Date(), { id: reader.id, type: 'human' }, author.id), []);

/** A reader and two authors it follows. */
async function readerOfTwo(): Promise<[ProfileRecord, ProfileRecord, ProfileRecord]> {
  const [reader, first, second] = await Promise.all([profile(), profile(), profile()]);
  await Promise.all([followAs(reader, first), followAs(reader, second)]);
  return [reader, first, second];
}

describe('a feed page on DynamoDB Local', () => {
  it('costs one Query beside the read-time authors’ read, then the posts’ BatchGetItem, then their authors’ follows', async () => {
    const [reader, author] = await Promise.all([profile(), profile()]);
    await followAs(reader, author);
    for (let i = 0; i < 25; i++) await fanOut(await published(author));
    await page(reader); // module state, connections
    const recorder = recordDynamoDbCalls(db());
    /** A page as counted: what it answered, its calls (sorted) and its longest chain of calls. */
    const counted = async (who: ProfileRecord) => {
      recorder.reset();
      const result = await page(who);
      const calls = recorder.calls.map((c) => c.command).sort();
      return { result, calls: calls.join(' '), chain: sequentialRoundTrips(recorder.calls) };
    };
    const first = await counted(reader);
    expect(first.result.items).toHaveLength(20);
    expect(first.result.items.every((i) => i.author.id === author.id)).toBe(true);
    expect(first.result.next_cursor).not.toBeNull();
    expect(first.calls).toBe('BatchGetItem BatchGetItem BatchGetItem Query');
    expect(first.chain).toBe(3);

    // A followed read-time author: one Query more, in a round trip of its own; its follow rides in the posts' read.
    const large = await profile();
    await followAs(reader, large);
    await markReadTimeAuthor(large.id, new Date());
    await addLargeAuthor(reader.id, large.id);
    const fromLarge = await published(large);
    const merged = await counted(reader);
    expect(merged.result.items[0]!.post.id).toBe(fromLarge.id);
    expect(merged.calls).toBe('BatchGetItem BatchGetItem BatchGetItem Query Query');
    expect(merged.chain).toBe(4);

    // A page of the reader's own posts only asks no follows: two round trips.
    const alone = await profile();
    for (let i = 0; i < 3; i++) await fanOut(await published(alone));
    const own = await counted(alone);
    expect(own.result.items.map((i) => i.author)).toEqual([alone, alone, alone]);
    expect(own.calls).toBe('BatchGetItem BatchGetItem Query');
    expect(own.chain).toBe(2);
  });

  it("leaves out removed and erased posts and unfollowed authors' posts, and deletes their entries behind the read", async () => {
    const [reader, kept, dropped] = await readerOfTwo();
    const kept1 = await published(kept);
    const removed = await published(kept);
    const erased = await published(kept);
    const unfollowed = await published(dropped);
    for (const post of [kept1, removed, erased, unfollowed]) await fanOut(post);
    expect(await inbox(reader.id)).toEqual([unfollowed.id, erased.id, removed.id, kept1.id]);

    await removePost(removed, new Date().toISOString());
    // Gone as an erasure takes it: the post item deleted, the reader's entry of it left dangling.
    await transact(erasedPostItems(erased));
    await unfollow(reader.id, dropped.id);
    const result = await page(reader);
    expect(result.items.map((i) => i.post.id)).toEqual([kept1.id]);
    expect(await inbox(reader.id)).toEqual([kept1.id]);
  });

  it("leaves a muted author's posts out of the page but keeps their entries (a mute lifted brings them back)", async () => {
    const [reader, muted, other] = await readerOfTwo();
    const quiet = await published(muted);
    const heard = await published(other);
    for (const post of [quiet, heard]) await fanOut(post);
    await mute(newMute(new Date(), reader.id, muted.id));
    const viewer = viewerFilterOf(await loadSafetySets(reader.id));
    expect((await page(reader, viewer)).items.map((i) => i.post.id)).toEqual([heard.id]);
    expect(await inbox(reader.id)).toEqual([heard.id, quiet.id]);
    await unmute(reader.id, muted.id);
    const lifted = viewerFilterOf(await loadSafetySets(reader.id));
    expect((await page(reader, lifted)).items.map((i) => i.post.id)).toEqual([heard.id, quiet.id]);
  });
});
