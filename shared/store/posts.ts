import type { OutboxEvent } from '../domain/events.js';
import { replyParentNotFound, type PostRecord } from '../domain/posts.js';
import { AppError, notFound } from '../errors.js';
import { batchGet, keyId } from './batch.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileRecord } from '../domain/entities.js';
import { db, tableName } from './client.js';
import { entities, postListing } from './entities.js';
import { getItem, putTransactItem, recordOf } from './items.js';
import { keys } from './keys.js';
import { outboxItem } from './outbox.js';
import { indexPage, queryPages, type Page, type PageRequest } from './pagination.js';
import { isConditionFailure, transactConditional } from './transact.js';
import type { ReadBatch } from './read-batch.js';
import { TABLE } from './table.js';
import type { TransactItem } from './transact.js';

const changedMeanwhile = () =>
  new AppError('invalid_state', {
    message: 'The post changed while this request ran.',
    hint: 'Read the post again and retry.',
  });

/** The parent's reply_count moves with the publication (or removal) of a reply, in the same transaction. */
const bumpReplyCount = (parentId: string, delta: 1 | -1): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.post(parentId),
    UpdateExpression: 'ADD reply_count :d',
    // A new reply needs a published parent; a reply's removal only needs the parent to exist.
    ConditionExpression: delta === 1 ? 'attribute_exists(pk) AND #status = :published' : 'attribute_exists(pk)',
    ...(delta === 1
      ? {
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':d': delta, ':published': 'published' },
        }
      : { ExpressionAttributeValues: { ':d': delta } }),
  },
});

/** The post's put, carrying the author's card. */
function putPostWithCard(post: PostRecord, author: ProfileRecord): TransactItem {
  const put = putTransactItem(entities.post, post);
  return { Put: { ...put.Put!, Item: { ...put.Put!.Item, [TABLE.authorCardAttribute]: author } } };
}

export async function createPost(post: PostRecord, author: ProfileRecord, events: OutboxEvent[]): Promise<void> {
  const items: TransactItem[] = [putPostWithCard(post, author)];
  if (post.reply_to_post_id && post.status === 'published') items.push(bumpReplyCount(post.reply_to_post_id, 1));
  items.push(...events.map(outboxItem));
  const outcome = await transactConditional(items);
  if (!outcome.ok) throw outcome.failed[1] ? replyParentNotFound() : changedMeanwhile();
}

export function getPost(id: string, consistent = false, reads?: ReadBatch): Promise<PostRecord | undefined> {
  return getItem(entities.post, keys.post(id), { consistent, reads });
}

/** The post with its author's card as the post item carries it (both undefined when there is no post). */
export type PostRead = ({ post: PostRecord; author: ProfileRecord } | { post: undefined; author: undefined }) & {
  liked: boolean;
};

/**
 * The post with its author's card and, when a viewer is known, the viewer's reaction: one
 * BatchGetItem (the request's, when `reads` is given).
 */
export async function getPostWithReaction(
  id: string,
  viewerId: string | undefined,
  reads?: ReadBatch,
): Promise<PostRead> {
  const postKey = keys.post(id);
  const reactionKey = viewerId ? keys.postReaction(id, viewerId) : undefined;
  let item: Record<string, unknown> | undefined;
  let liked: boolean;
  if (reads) {
    const [postItem, reaction] = await Promise.all([
      reads.get(postKey),
      reactionKey ? reads.get(reactionKey) : undefined,
    ]);
    item = postItem;
    liked = reaction !== undefined;
  } else {
    const found = await batchGet(reactionKey ? [postKey, reactionKey] : [postKey]);
    item = found.get(keyId(postKey));
    liked = reactionKey !== undefined && found.has(keyId(reactionKey));
  }
  if (!item) return { post: undefined, author: undefined, liked };
  return { post: recordOf(entities.post, item), author: item[TABLE.authorCardAttribute] as ProfileRecord, liked };
}

/**
 * Copies the profile into the card of each of its published posts (drafts get a fresh card when
 * published). Guarded by the profile's updated_at, so a late or replayed stream record never puts
 * an older card over a newer one. Returns how many posts were refreshed.
 */
export async function refreshAuthorCards(profile: ProfileRecord): Promise<number> {
  let refreshed = 0;
  const pages = queryPages({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.profilePosts(profile.id) },
    ProjectionExpression: 'pk, sk',
  });
  for await (const page of pages) {
    const results = await Promise.all(
      page.map(async (item) => {
        try {
          await db().send(
            new UpdateCommand({
              TableName: tableName(),
              Key: { pk: item.pk as string, sk: item.sk as string },
              UpdateExpression: 'SET #card = :card',
              ConditionExpression: 'attribute_exists(pk) AND #card.updated_at <= :at',
              ExpressionAttributeNames: { '#card': TABLE.authorCardAttribute },
              ExpressionAttributeValues: { ':card': profile, ':at': profile.updated_at },
            }),
          );
          return 1;
        } catch (error) {
          if (isConditionFailure(error)) return 0;
          throw error;
        }
      }),
    );
    refreshed += results.reduce<number>((a, b) => a + b, 0);
  }
  return refreshed;
}

/** Which of `postIds` the viewer likes (one BatchGetItem per 100). */
export async function likedPosts(postIds: readonly string[], viewerId: string | undefined): Promise<Set<string>> {
  if (!viewerId || postIds.length === 0) return new Set();
  const found = await batchGet(postIds.map((id) => keys.postReaction(id, viewerId)));
  return new Set(postIds.filter((id) => found.has(keyId(keys.postReaction(id, viewerId)))));
}

/**
 * Applies an edit and/or the publication of a draft, guarded by the status the caller read, with
 * the parent's reply_count and the events in the same transaction. Returns the post as stored.
 */
export async function updatePost(
  before: PostRecord,
  changes: { body?: string | undefined; publishAt?: string | undefined; author?: ProfileRecord | undefined },
  updatedAt: string,
  events: OutboxEvent[],
): Promise<PostRecord> {
  const names: Record<string, string> = { '#status': 'status', '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':expected': before.status, ':updated_at': updatedAt };
  const sets = ['#updated_at = :updated_at'];
  if (changes.body !== undefined) {
    names['#body'] = 'body';
    values[':body'] = changes.body;
    sets.push('#body = :body');
  }
  if (changes.publishAt) {
    values[':published'] = 'published';
    values[':published_at'] = changes.publishAt;
    const listing = postListing({ ...before, status: 'published', published_at: changes.publishAt });
    values[':gsi1pk'] = listing.gsi1pk;
    values[':gsi1sk'] = listing.gsi1sk;
    sets.push('#status = :published', 'published_at = :published_at', 'gsi1pk = :gsi1pk', 'gsi1sk = :gsi1sk');
    if (changes.author) {
      names['#card'] = TABLE.authorCardAttribute;
      values[':card'] = changes.author;
      sets.push('#card = :card');
    }
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.post(before.id),
        UpdateExpression: 'SET ' + sets.join(', '),
        ConditionExpression: 'attribute_exists(pk) AND #status = :expected',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (changes.publishAt && before.reply_to_post_id) items.push(bumpReplyCount(before.reply_to_post_id, 1));
  items.push(...events.map(outboxItem));
  const outcome = await transactConditional(items);
  if (!outcome.ok) throw outcome.failed[1] ? replyParentNotFound() : changedMeanwhile();
  return (await getPost(before.id, true))!;
}

/** Sets status `removed` and takes the post out of the profile's list; a published reply no longer counts. */
export async function removePost(before: PostRecord, updatedAt: string): Promise<PostRecord> {
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.post(before.id),
        UpdateExpression: 'SET #status = :removed, #updated_at = :at REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk) AND #status = :expected',
        ExpressionAttributeNames: { '#status': 'status', '#updated_at': 'updated_at' },
        ExpressionAttributeValues: { ':removed': 'removed', ':at': updatedAt, ':expected': before.status },
      },
    },
  ];
  if (before.status === 'published' && before.reply_to_post_id) items.push(bumpReplyCount(before.reply_to_post_id, -1));
  const outcome = await transactConditional(items);
  if (!outcome.ok) throw outcome.failed[0] ? changedMeanwhile() : notFound('Post');
  return (await getPost(before.id, true))!;
}

/** A profile's published posts, newest first. */
export function listProfilePosts(profileId: string, request: PageRequest): Promise<Page<PostRecord>> {
  return indexPage(entities.post, 'gsi1', keys.profilePosts(profileId), request, 'newest_first');
}
