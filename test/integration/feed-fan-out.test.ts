/**
 * The home feed's fan-out on DynamoDB Local, through the same stream and queue handlers as in
 * Lambda and the local runtime's in-process queue: batches with retries, concurrency, replays.
 * A table of its own, so that no server's stream poller works on these records meanwhile.
 */
import { BatchWriteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { feedQueueHandler, feedStreamHandler } from '../../functions/feed-pipeline/handlers.js';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import { LocalFeedQueue } from '../../infra/local/local-feed-queue.js';
import { newProfile, type ProfileRecord } from '../../shared/domain/entities.js';
import type { FeedEntry } from '../../shared/domain/feed.js';
import { newId } from '../../shared/domain/ids.js';
import { newPost, type PostRecord } from '../../shared/domain/posts.js';
import { newFollow } from '../../shared/domain/social.js';
import { writeFeedMessage } from '../../shared/feed/write-inboxes.js';
import type { FeedMessage, FeedQueue } from '../../shared/ports/feed-queue.js';
import { batchWrite, type WriteRequest } from '../../shared/store/batch.js';
import { db, tableName } from '../../shared/store/client.js';
import { entities } from '../../shared/store/entities.js';
import { deleteFeedEntries, isReadTimeAuthor, markReadTimeAuthor } from '../../shared/store/feed.js';
import { follow } from '../../shared/store/follows.js';
import { itemOf } from '../../shared/store/items.js';
import { keys } from '../../shared/store/keys.js';
import { createPost } from '../../shared/store/posts.js';
import { createProfile } from '../../shared/store/profiles.js';
import { unique } from '../support/api.js';
import { bySession } from '../support/disclosure.js';

beforeAll(async () => {
  process.env.TABLE_NAME = unique('feed_fan_out');
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME);
});

/** The local runtime's queue and writer, counting what is sent through them. */
function pipeline(maxFollowers = 10_000) {
  const sent: FeedMessage[] = [];
  const local = new LocalFeedQueue((event) => write(event), { batchSize: 10, maxConcurrency: 4 });
  const queue: FeedQueue = {
    send: async (messages) => {
      sent.push(...messages);
      await local.send(messages);
    },
  };
  const write = feedQueueHandler(queue);
  return { sent, queue, stream: feedStreamHandler(queue, { maxFollowers }) };
}

async function profile(): Promise<ProfileRecord> {
  const p = newProfile(new Date(), {
    workspace_id: newId(),
    username: unique('feed').toLowerCase(),
    type: 'human',
    name: 'Feed Author',
    call_name: 'Author',
  });
  await createProfile(p);
  return p;
}

/** `count` followers of the author (only the followed side needs a profile item). */
async function followers(author: ProfileRecord, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId());
  for (let i = 0; i < ids.length; i += 25)
    await Promise.all(
      ids.slice(i, i + 25).map((id) => follow(newFollow(new Date(), { id, type: 'human' }, author.id), [])),
    );
  return ids;
}

async function published(author: ProfileRecord, fields: Partial<PostRecord> = {}): Promise<PostRecord> {
  const post = {
    ...newPost(new Date(), author, { body: 'Hello', images: [], status: 'published' }, bySession),
    ...fields,
  };
  await createPost(post, author, [], []);
  return post;
}

let sequence = 10n ** 20n;
/** The stream record of a write of `record` (flat: strings, numbers and nulls), as the event source hands it over. */
function streamRecord(eventName: 'INSERT' | 'MODIFY', entity: string, record: object): DynamoDBRecord {
  sequence += 1n;
  const image: Record<string, { S: string } | { N: string } | { NULL: true }> = {};
  for (const [name, value] of Object.entries({ ...record, entity })) {
    if (typeof value === 'string') image[name] = { S: value };
    else if (typeof value === 'number') image[name] = { N: String(value) };
    else if (value === null) image[name] = { NULL: true };
  }
  return { eventName, dynamodb: { SequenceNumber: String(sequence), NewImage: image } };
}
const postRecord = (eventName: 'INSERT' | 'MODIFY', post: PostRecord) => streamRecord(eventName, 'post', post);

/** The readers whose inbox holds the post. */
async function holders(readers: readonly string[], entry: FeedEntry): Promise<string[]> {
  const found = await Promise.all(
    readers.map(async (reader) => {
      const { Items } = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk = :sk',
          ExpressionAttributeValues: {
            ':pk': keys.feedInbox(reader),
            ':sk': keys.feedEntry(reader, entry.published_at, entry.post_id).sk,
          },
          ConsistentRead: true,
        }),
      );
      return Items?.length ? [reader] : [];
    }),
  );
  return found.flat();
}

const entryOf = (post: PostRecord): FeedEntry => ({ post_id: post.id, published_at: post.published_at! });

/** The raw items of the reader's inbox, newest first. */
async function inboxItems(reader: string) {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.feedInbox(reader) },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

/** Every entry of the reader's inbox, as post ids, newest first. */
const inbox = async (reader: string) => (await inboxItems(reader)).map((item) => item.post_id as string);

describe('the feed fan-out on DynamoDB Local', () => {
  it("puts a post into every follower's inbox and the author's own, 100 readers per queue message", async () => {
    const author = await profile();
    const readers = await followers(author, 250);
    const post = await published(author);
    const { sent, stream } = pipeline();
    expect(await stream({ Records: [postRecord('INSERT', post)] })).toEqual({ batchItemFailures: [] });
    expect(sent.map((m) => (m.kind === 'post' ? m.reader_ids.length : 0))).toEqual([100, 100, 50]);
    // The messages name no author either: the writer needs none.
    expect(sent.map((m) => Object.keys(m).sort())).toEqual(
      Array(3).fill(['kind', 'post_id', 'published_at', 'reader_ids']),
    );
    expect((await holders([...readers, author.id], entryOf(post))).sort()).toEqual([...readers, author.id].sort());
    // A follower's entry is the post's id and position, nothing naming the author, and expires 30 days
    // after the post was published.
    const expiry = Math.ceil(Date.parse(post.published_at!) / 1000) + 30 * 86_400;
    const items = await inboxItems(readers[0]!);
    expect(items).toEqual([
      {
        ...keys.feedEntry(readers[0]!, post.published_at!, post.id),
        entity: 'feed_entry',
        post_id: post.id,
        published_at: post.published_at,
        expires_at_epoch: expiry,
      },
    ]);
    expect(JSON.stringify(items)).not.toContain(author.id);
    // The author's own entry, in its own inbox, marks itself.
    expect(await inboxItems(author.id)).toEqual([
      {
        ...keys.feedEntry(author.id, post.published_at!, post.id),
        entity: 'feed_entry',
        post_id: post.id,
        published_at: post.published_at,
        own: true,
        expires_at_epoch: expiry,
      },
    ]);
  });

  it('writes every entry when DynamoDB leaves part of each BatchWriteItem unprocessed, sending that part again', async () => {
    const post = { post_id: newId(), published_at: new Date().toISOString() };
    const readers = Array.from({ length: 120 }, () => newId());
    const requests: WriteRequest[] = readers.map((reader) => ({
      PutRequest: { Item: itemOf(entities.feedEntry(reader), post) },
    }));
    let calls = 0;
    // The real call, but for only the first third of each request: the rest comes back unprocessed.
    await batchWrite(requests, { concurrency: 3, attempts: 8, backoffMs: 5 }, async (batch) => {
      calls++;
      const taken = batch.slice(0, Math.ceil(batch.length / 3));
      await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: taken } }));
      return batch.slice(taken.length);
    });
    expect((await holders(readers, post)).sort()).toEqual([...readers].sort());
    expect(calls).toBeGreaterThan(requests.length / 25);
  });

  it('does nothing more for a repeated or replayed stream record, nor for a counter change of a draft-published post', async () => {
    const author = await profile();
    const readers = await followers(author, 30);
    const created = new Date(Date.now() - 60_000).toISOString();
    const publishedAt = new Date().toISOString();
    // A draft published a minute after it was written: the MODIFY that published it.
    const post = await published(author, { created_at: created, published_at: publishedAt, updated_at: publishedAt });
    const { sent, stream } = pipeline();
    const batch = { Records: [postRecord('MODIFY', post)] };
    await stream(batch);
    expect(sent).toHaveLength(1);
    // The reader's clean-up took one entry away (say the reader saw the post removed); a replay must not bring it back.
    await deleteFeedEntries(readers[0]!, [entryOf(post)]);
    await stream(batch);
    await stream({ Records: [postRecord('MODIFY', { ...post, likes_count: 7 })] });
    expect(sent).toHaveLength(1);
    expect((await holders(readers, entryOf(post))).sort()).toEqual(readers.slice(1).sort());

    // Nor for one of a post published before the feed's 30 days, whose own entry has expired.
    const month = 31 * 86_400_000;
    const old = await published(author, {
      created_at: new Date(Date.now() - month - 60_000).toISOString(),
      published_at: new Date(Date.now() - month).toISOString(),
      updated_at: new Date(Date.now() - month).toISOString(),
    });
    await stream({ Records: [postRecord('MODIFY', { ...old, likes_count: 1 })] });
    expect(sent).toHaveLength(1);
    expect(await holders([author.id, ...readers], entryOf(old))).toEqual([]);
  });

  it('ends with each entry exactly once when the same batch is handled twice at once and many authors post at once', async () => {
    const authors = await Promise.all(Array.from({ length: 6 }, () => profile()));
    const shared = Array.from({ length: 40 }, () => newId());
    for (const author of authors)
      await Promise.all(shared.map((id) => follow(newFollow(new Date(), { id, type: 'human' }, author.id), [])));
    const posts = await Promise.all(authors.flatMap((author) => [published(author), published(author)]));
    const { stream } = pipeline();
    const batch = { Records: posts.map((p) => postRecord('INSERT', p)) };
    const results = await Promise.all([
      stream(batch),
      stream(batch),
      stream({ Records: [...batch.Records].reverse() }),
    ]);
    for (const result of results) expect(result).toEqual({ batchItemFailures: [] });
    const expected = [...posts]
      .sort((a, b) =>
        a.published_at! === b.published_at! ? (a.id < b.id ? 1 : -1) : a.published_at! < b.published_at! ? 1 : -1,
      )
      .map((p) => p.id);
    for (const reader of shared) expect(await inbox(reader)).toEqual(expected);
  });

  it('merges an author above the limit at read time: marked once, its followers walked page by page, its posts not fanned out', async () => {
    const author = await profile();
    const readers = await followers(author, 5);
    const { sent, stream } = pipeline(3);
    const first = await published(author);
    await stream({ Records: [postRecord('INSERT', first)] });
    expect(sent).toEqual([{ kind: 'read_time_author', author_id: author.id }]);
    expect(await isReadTimeAuthor(author.id)).toBe(true);
    // The walk the writer ran added the author to every follower's read-time authors.
    for (const reader of readers) {
      const item = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.feedLargeAuthors(reader).pk },
          ConsistentRead: true,
        }),
      );
      expect(item.Items?.[0]?.author_ids, reader).toEqual(new Set([author.id]));
    }
    expect(await holders(readers, entryOf(first))).toEqual([]);
    expect(await holders([author.id], entryOf(first))).toEqual([author.id]);

    // A later post sends nothing; a walk in pages of 2 hands the rest on, one message per page.
    const second = await published(author);
    await stream({ Records: [postRecord('INSERT', second)] });
    expect(sent).toHaveLength(1);
    const walked: FeedMessage[] = [];
    const counting: FeedQueue = {
      send: async (messages) => {
        walked.push(...messages);
        for (const message of messages) await writeFeedMessage(message, counting, { walkPage: 2 });
      },
    };
    await writeFeedMessage({ kind: 'read_time_author', author_id: author.id }, counting, { walkPage: 2 });
    expect(walked).toHaveLength(2); // pages of 2, 2 and 1 follower
  });

  it("backfills a new follower with the author's recent posts (not replies), or adds a read-time author to its set", async () => {
    const author = await profile();
    const posts = [];
    for (let i = 0; i < 3; i++) posts.push(await published(author));
    const reply = newPost(new Date(), author, { body: 'Reply', images: [], status: 'published' }, bySession, {
      parent: posts[0],
    });
    await createPost(reply, author, [], []);
    const reader = newId();
    const { stream } = pipeline();
    const followed = newFollow(new Date(), { id: reader, type: 'human' }, author.id);
    await follow(followed, []);
    await stream({ Records: [streamRecord('INSERT', 'follow', followed)] });
    expect(await inbox(reader)).toEqual(posts.map((p) => p.id).reverse());
    // Backfilled entries are a follower's: nothing names the author.
    const backfilled = await inboxItems(reader);
    expect(backfilled.map((item) => Object.keys(item).sort())).toEqual(
      Array(3).fill(['entity', 'expires_at_epoch', 'pk', 'post_id', 'published_at', 'sk']),
    );
    expect(JSON.stringify(backfilled)).not.toContain(author.id);

    // Once the author is merged at read time, a new follower gets it in its set and nothing in its inbox.
    await markReadTimeAuthor(author.id, new Date());
    const later = newFollow(new Date(), { id: newId(), type: 'human' }, author.id);
    await follow(later, []);
    await stream({ Records: [streamRecord('INSERT', 'follow', later)] });
    expect(await inbox(later.follower_profile_id)).toEqual([]);
    const { Item } = await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.feedLargeAuthors(later.follower_profile_id),
        ConsistentRead: true,
      }),
    );
    expect(Item?.author_ids).toEqual(new Set([author.id]));
  });
});
