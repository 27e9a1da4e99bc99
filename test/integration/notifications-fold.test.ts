import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { notifyHandler } from '../../functions/notifications-pipeline/notify.js';
import { newId } from '../../shared/domain/ids.js';
import { NOTIFY_WATERMARK_KEEP_SECONDS } from '../../shared/notifications/from-stream.js';
import { keys } from '../../shared/store/keys.js';
import { listNotifications, markSeen, unreadCount } from '../../shared/store/notifications.js';
import { actor, post } from '../support/social.js';

// The records below are made up: their reaction and follow items are never written, so the shared
// server's own stream poller notifies nothing of them; only these calls do.
const handler = notifyHandler(NOTIFY_WATERMARK_KEEP_SECONDS);
let sequence = 10n ** 20n;

function record(eventName: 'INSERT' | 'REMOVE', key: { pk: string; sk: string }, image?: Record<string, unknown>) {
  sequence += 1n;
  return {
    eventName,
    dynamodb: {
      SequenceNumber: String(sequence),
      Keys: { pk: { S: key.pk }, sk: { S: key.sk } },
      ...(image ? { NewImage: marshall(image, { removeUndefinedValues: true }) } : {}),
    },
  } as DynamoDBRecord;
}
const like = (postId: string, profileId = newId(), active = true) =>
  record(
    active ? 'INSERT' : 'REMOVE',
    keys.postReaction(postId, profileId),
    active ? { entity: 'reaction' } : undefined,
  );
const shard = () => `shardId-${newId()}`;

/** An outbox event as the stream carries it: a reply to the recipient's post. */
function replyEvent(recipientId: string, actorId = newId()) {
  const event = {
    id: newId(),
    type: 'post.reply',
    profile_id: recipientId,
    workspace_id: newId(),
    created_at: new Date().toISOString(),
    data: { post: { id: newId() }, profile: { id: actorId, type: 'human' } },
  };
  return record('INSERT', keys.event(event.id), { ...keys.event(event.id), entity: 'event', ...event });
}

async function authorWithPost() {
  const author = await actor();
  const { post: p } = await post(author, { body: 'liked' });
  return { authorId: author.profile.id, postId: p.id as string };
}

const inbox = async (profileId: string) => (await listNotifications(profileId, {}, { limit: 100 }, new Date())).items;

describe('notifications folded from the table stream', () => {
  it('writes a replayed or duplicated batch once: one group, the exact count, one unread', async () => {
    const { authorId, postId } = await authorWithPost();
    const batch = [like(postId), like(postId), like(postId), like(postId, authorId)];
    const shardId = shard();
    expect(await handler({ Records: batch, shardId })).toEqual({ batchItemFailures: [] });
    expect(await handler({ Records: batch, shardId })).toEqual({ batchItemFailures: [] });
    // resumed from its middle, as after a failed record
    await handler({ Records: batch.slice(1), shardId });
    const items = await inbox(authorId);
    expect(items).toHaveLength(1);
    // the author's own like is not counted
    expect(items[0]).toMatchObject({ reason: 'like', subject_id: postId, actors_count: 3, seen: false });
    expect(await unreadCount(authorId, new Date())).toBe(1);
  });

  it('groups concurrent batches of many shards into one notification with the exact count', async () => {
    const { authorId, postId } = await authorWithPost();
    const shards = Array.from({ length: 8 }, () => ({
      shardId: shard(),
      Records: Array.from({ length: 15 }, () => like(postId)),
    }));
    const answers = await Promise.all(shards.map((event) => handler(event)));
    expect(answers.every((a) => a.batchItemFailures.length === 0)).toBe(true);
    const items = await inbox(authorId);
    expect(items).toHaveLength(1);
    expect(items[0]!.actors_count).toBe(120);
    expect(items[0]!.actor_ids).toHaveLength(3);
    expect(await unreadCount(authorId, new Date())).toBe(1);
  });

  it('notifies an outbox event once, however often its record comes', async () => {
    const recipient = newId();
    const event = replyEvent(recipient);
    await Promise.all([
      handler({ Records: [event], shardId: shard() }),
      handler({ Records: [event], shardId: shard() }),
    ]);
    await handler({ Records: [event, replyEvent(recipient, recipient)], shardId: shard() });
    const items = await inbox(recipient);
    expect(items.map((n) => n.reason)).toEqual(['reply']);
    expect(await unreadCount(recipient, new Date())).toBe(1);
  });

  it('a seen group is closed: the next like opens another; a replay of what was folded before opens nothing', async () => {
    const { authorId, postId } = await authorWithPost();
    const shardId = shard();
    const first = [like(postId), like(postId)];
    await handler({ Records: first, shardId });
    expect(await markSeen(authorId, new Date().toISOString(), new Date())).toBe(0);
    await handler({ Records: first, shardId });
    expect(await inbox(authorId)).toHaveLength(1);
    const liker = newId();
    await handler({ Records: [like(postId, liker), like(postId, liker, false), like(postId, liker)], shardId });
    const items = await inbox(authorId);
    expect(items.map((n) => [n.seen, n.actors_count])).toEqual([
      [false, 1],
      [true, 2],
    ]);
    expect(await unreadCount(authorId, new Date())).toBe(1);
  });

  it('keeps the unread count exact while likes and seen requests race', async () => {
    const { authorId, postId } = await authorWithPost();
    // A shard's batches come one after another (the event source's parallelization is 1): one shard per round.
    const shardIds = Array.from({ length: 6 }, shard);
    await Promise.all(
      Array.from({ length: 6 }, async (_, round) => {
        await handler({ Records: [like(postId), like(postId)], shardId: shardIds[round]! });
        if (round % 2 === 0) await markSeen(authorId, new Date().toISOString(), new Date());
        await handler({ Records: [replyEvent(authorId)], shardId: shard() });
      }),
    );
    const items = await inbox(authorId);
    expect(await unreadCount(authorId, new Date())).toBe(items.filter((n) => !n.seen).length);
    // every like is counted in exactly one group
    const likes = items.filter((n) => n.reason === 'like').reduce((sum, n) => sum + n.actors_count, 0);
    expect(likes).toBe(12);
  });
});
