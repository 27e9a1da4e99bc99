/**
 * What one feed page costs on DynamoDB Local, counted on the store's client: the inbox Query beside
 * the request's BatchGetItem (which carries the read-time authors), then one BatchGetItem; one
 * Query more per followed read-time author. And what a page leaves out and cleans up behind.
 */
import { NO_VIEWER_FILTER } from '../../shared/domain/safety.js';
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
import { createPost, removePost } from '../../shared/store/posts.js';
import { createProfile } from '../../shared/store/profiles.js';
import { ReadBatch } from '../../shared/store/read-batch.js';
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

async function page(reader: ProfileRecord, request: { limit: number; cursor?: string } = { limit: 20 }) {
  return answerFeedPage(await readFeedPage(reader.id, request, new ReadBatch()), reader, NO_VIEWER_FILTER);
}

async function inboxSize(reader: string): Promise<number> {
  const { Count } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.feedInbox(reader) },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return Count ?? 0;
}

describe('a feed page on DynamoDB Local', () => {
  it('costs one Query beside the read-time authors’ read, then one BatchGetItem: two round trips', async () => {
    const [reader, author] = await Promise.all([profile(), profile()]);
    await follow(newFollow(new Date(), { id: reader.id, type: 'human' }, author.id), []);
    for (let i = 0; i < 25; i++) await fanOut(await published(author));
    await page(reader); // module state, connections
    const recorder = recordDynamoDbCalls(db());
    const result = await page(reader);
    expect(result.items).toHaveLength(20);
    expect(result.next_cursor).not.toBeNull();
    expect(recorder.calls.map((c) => c.command).sort()).toEqual(['BatchGetItem', 'BatchGetItem', 'Query']);
    expect(sequentialRoundTrips(recorder.calls)).toBe(2);

    // A followed read-time author: one Query more, in a round trip of its own.
    const large = await profile();
    await follow(newFollow(new Date(), { id: reader.id, type: 'human' }, large.id), []);
    await markReadTimeAuthor(large.id, new Date());
    await addLargeAuthor(reader.id, large.id);
    const fromLarge = await published(large);
    recorder.reset();
    const merged = await page(reader);
    expect(merged.items[0]!.post.id).toBe(fromLarge.id);
    expect(recorder.calls.map((c) => c.command).sort()).toEqual(['BatchGetItem', 'BatchGetItem', 'Query', 'Query']);
    expect(sequentialRoundTrips(recorder.calls)).toBe(3);
  });

  it("leaves out removed posts and unfollowed authors' posts, and deletes their entries behind the read", async () => {
    const [reader, kept, dropped] = await Promise.all([profile(), profile(), profile()]);
    await follow(newFollow(new Date(), { id: reader.id, type: 'human' }, kept.id), []);
    await follow(newFollow(new Date(), { id: reader.id, type: 'human' }, dropped.id), []);
    const kept1 = await published(kept);
    const removed = await published(kept);
    const gone = await published(dropped);
    for (const post of [kept1, removed, gone]) await fanOut(post);
    expect(await inboxSize(reader.id)).toBe(3);

    await removePost(removed, new Date().toISOString());
    await unfollow(reader.id, dropped.id);
    const result = await page(reader);
    expect(result.items.map((i) => i.post.id)).toEqual([kept1.id]);
    expect(await inboxSize(reader.id)).toBe(1);
  });
});
