import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { foldCountsHandler } from '../../functions/counters/fold-counts.js';
import { COUNTS_WATERMARK_KEEP_SECONDS, foldCounts } from '../../shared/counters/from-stream.js';
import { newId } from '../../shared/domain/ids.js';
import { db, tableName } from '../../shared/store/client.js';
import { getComment } from '../../shared/store/comments.js';
import { getFollowCounts } from '../../shared/store/follows.js';
import { keys } from '../../shared/store/keys.js';
import { getPost } from '../../shared/store/posts.js';
import { call } from '../support/api.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';
import { actor, ok, post } from '../support/social.js';

// The records below are made up: their reaction and follow items are never written, so the shared
// server's own stream poller folds nothing into these counters; only these calls do.
const handler = foldCountsHandler(COUNTS_WATERMARK_KEEP_SECONDS);
let sequence = 10n ** 20n;

type Key = { pk: string; sk: string };
function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', key: Key): DynamoDBRecord {
  sequence += 1n;
  return {
    eventName,
    dynamodb: {
      SequenceNumber: String(sequence),
      Keys: { pk: { S: key.pk }, sk: { S: key.sk } },
      // A removal carries no image (the stream's view is NEW_IMAGE): the fold reads the keys only.
      ...(eventName === 'REMOVE' ? {} : { NewImage: { pk: { S: key.pk }, sk: { S: key.sk } } }),
    },
  };
}
const like = (postId: string, active = true) =>
  record(active ? 'INSERT' : 'REMOVE', keys.postReaction(postId, newId()));
const shard = () => `shardId-${newId()}`;
const likesOf = async (postId: string) => (await getPost(postId, true))!.likes_count;

async function publishedPost() {
  const author = await actor();
  return (await post(author, { body: 'counted' })).post.id as string;
}

describe('the counts folded from the table stream', () => {
  it('counts a batch delivered twice (a retry, a replay after a restart) once', async () => {
    const postId = await publishedPost();
    const liker = newId();
    const batch = [
      like(postId),
      like(postId),
      record('INSERT', keys.postReaction(postId, liker)),
      record('REMOVE', keys.postReaction(postId, liker)),
      like(postId),
    ];
    const shardId = shard();
    expect(await handler({ Records: batch, shardId })).toEqual({ batchItemFailures: [] });
    expect(await likesOf(postId)).toBe(3);
    expect(await handler({ Records: batch, shardId })).toEqual({ batchItemFailures: [] });
    expect(await likesOf(postId)).toBe(3);
  });

  it('counts an overlapping batch (resumed from a failed record) only from where the last one ended', async () => {
    const postId = await publishedPost();
    const records = Array.from({ length: 8 }, () => like(postId));
    const shardId = shard();
    await handler({ Records: records.slice(0, 5), shardId });
    await handler({ Records: records.slice(2), shardId });
    expect(await likesOf(postId)).toBe(8);
  });

  it('keeps one watermark per shard: batches of two shards side by side are each counted once', async () => {
    const postId = await publishedPost();
    const [a, b] = [shard(), shard()];
    const fromA = Array.from({ length: 4 }, () => like(postId));
    // B's sequence numbers are all above A's: one watermark for both would drop A's second batch.
    const fromB = Array.from({ length: 3 }, () => like(postId));
    await Promise.all([handler({ Records: fromB, shardId: b }), handler({ Records: fromA.slice(0, 2), shardId: a })]);
    await handler({ Records: fromA.slice(2), shardId: a });
    await handler({ Records: fromB, shardId: b });
    expect(await likesOf(postId)).toBe(7);
  });

  it("writes each counter item once per batch: a post's likes and quotes, a comment's reactions, a profile's followers", async () => {
    const author = await actor();
    const postId = (await post(author, { body: 'with a comment' })).post.id as string;
    const { comment } = ok(
      await call('POST', `/v1/posts/${postId}/comments`, {
        token: author.key,
        profileId: author.profile.id,
        body: { body: 'a comment' },
      }),
      201,
    );
    const followed = author.profile.id;
    const batch = [
      like(postId),
      record('INSERT', keys.commentReaction(comment.id as string, newId())),
      record('INSERT', keys.follow(newId(), followed)),
      like(postId),
      record('INSERT', keys.follow(newId(), followed)),
      record('REMOVE', keys.follow(newId(), followed)),
      record('INSERT', keys.commentReaction(comment.id as string, newId())),
      record('INSERT', keys.quoteMark(postId, newId())),
      record('INSERT', keys.quoteMark(postId, newId())),
      // Neither a like, a follow nor a quote: the post item itself, a reaction item rewritten.
      record('MODIFY', keys.post(postId)),
      record('MODIFY', keys.postReaction(postId, newId())),
    ];
    const sent = new Map<string, number>();
    const recorder = recordDynamoDbCalls(db());
    try {
      await handler({ Records: batch, shardId: shard() });
      for (const call of recorder.calls) sent.set(call.command, (sent.get(call.command) ?? 0) + 1);
    } finally {
      db().middlewareStack.remove('benchCallRecorder');
    }
    // The post's likes and quotes in one write.
    expect(Object.fromEntries(sent)).toEqual({ UpdateItem: 3 });
    expect(await likesOf(postId)).toBe(2);
    expect((await getPost(postId, true))!.quotes_count).toBe(2);
    expect((await getComment(comment.id as string, true))!.reactions_count).toBe(2);
    expect(await getFollowCounts(followed)).toEqual({ followers_count: 1, following_count: 0 });
  });

  it('creates no item for a like of a post that does not exist, and reports nothing failed', async () => {
    const missing = newId();
    expect(await handler({ Records: [like(missing)], shardId: shard() })).toEqual({ batchItemFailures: [] });
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.post(missing), ConsistentRead: true }),
    );
    expect(Item).toBeUndefined();
  });

  it("keeps the watermarks out of the post's record and drops those older than the keep", async () => {
    const postId = await publishedPost();
    const [old, current] = [shard(), shard()];
    const then = new Date(Date.now() - (COUNTS_WATERMARK_KEEP_SECONDS + 60) * 1000);
    expect(await foldCounts([like(postId)], old, { now: then, keepSeconds: COUNTS_WATERMARK_KEEP_SECONDS })).toEqual(
      [],
    );
    const post = await getPost(postId, true);
    expect(Object.keys(post!).filter((name) => name.startsWith('wm_'))).toEqual([]);
    await foldCounts([like(postId)], current, { now: new Date(), keepSeconds: COUNTS_WATERMARK_KEEP_SECONDS });
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.post(postId), ConsistentRead: true }),
    );
    expect(Item).not.toHaveProperty(`wm_${old}`);
    expect(Item).toHaveProperty(`wm_${current}`);
    expect(Item!.likes_count).toBe(2);
  });

  it('refuses counted records on an event that does not name its shard, and lets other events through', async () => {
    const postId = await publishedPost();
    await expect(handler({ Records: [like(postId)] })).rejects.toThrow(/shardId/);
    expect(await handler({ Records: [record('MODIFY', keys.post(postId))] })).toEqual({ batchItemFailures: [] });
  });
});
