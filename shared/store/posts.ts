import type { OutboxEvent } from '../domain/events.js';
import { extractHashtags } from '../domain/hashtags.js';
import type { ReadyMedia } from '../domain/media-attachments.js';
import { replyParentNotFound, versionOf, type PostRecord, type RemovedBy } from '../domain/posts.js';
import { AppError } from '../errors.js';
import { batchGet, keyId } from './batch.js';
import type { ProfileRecord } from '../domain/entities.js';
import { tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { entities, type QuoteMarkRecord } from './entities.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, indexAttributes, indexChanges, putTransactItem, recordOf } from './items.js';
import { keys, type QuoteKeyParts } from './keys.js';
import type { CounterItem } from './counter-fold.js';
import { outboxItem } from './outbox.js';
import { attachPostImages, releasePostImages } from './post-images.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPathPages } from './paths.js';
import { transact, type GuardedItem } from './transact.js';
import type { ReadBatch } from './read-batch.js';
import { TABLE } from './table.js';
import type { TransactItem } from './transact.js';
import { sendUpdate } from './update.js';
import { versionItem } from './versions.js';
import { mapLimit } from '../pipeline/concurrency.js';

const changedMeanwhile = () =>
  new AppError('invalid_state', {
    message: 'The post changed while this request ran.',
    hint: 'Read the post again and retry.',
  });

/**
 * The parent's reply_count, moved in the same transaction as the reply's publication (+1) or
 * removal (-1). Counting needs the parent published; uncounting only needs it to exist.
 */
const countReplyOn = (parentId: string, delta: 1 | -1): TransactItem => ({
  Update: updateRequest({
    key: keys.post(parentId),
    add: { reply_count: delta },
    when: delta === 1 ? [when.exists(), when.is('status', 'published')] : when.exists(),
  }),
});

/** A published quote's mark: put when it is published, deleted when it is removed (a repeat writes nothing new). */
const quoteMarkOf = (quote: PostRecord & { quoted_post_id: string }): QuoteMarkRecord => ({
  quoted_post_id: quote.quoted_post_id,
  quote_post_id: quote.id,
  profile_id: quote.profile_id,
});

/**
 * What a post's publication (+1) or removal (-1) moves for the post it replies to or quotes: the
 * one place replies and quotes are counted. A reply counts on its parent in the same transaction.
 * A quote puts or deletes its quote mark, an item of its own in one of the quoted post's key
 * shards, which the counter fold counts into the quoted post's quotes_count from the table
 * stream: the quotes of one post never write one item. (The caller has read the quoted post
 * published.)
 */
function countsOnRelated(post: PostRecord, delta: 1 | -1): GuardedItem[] {
  if (post.reply_to_post_id) {
    return [{ item: countReplyOn(post.reply_to_post_id, delta), refused: replyParentNotFound }];
  }
  if (post.quoted_post_id) {
    const mark = quoteMarkOf({ ...post, quoted_post_id: post.quoted_post_id });
    const item: TransactItem =
      delta === 1
        ? putTransactItem(entities.quoteMark, mark, { ifAbsent: false })
        : { Delete: { TableName: tableName(), Key: entities.quoteMark.key(mark) } };
    return [{ item, refused: changedMeanwhile }];
  }
  return [];
}

/** Where the counter fold counts a quote mark: the quoted post's quotes_count. */
export const quoteCounter = ({ quotedId }: QuoteKeyParts): { item: CounterItem; counter: string } => ({
  item: { key: keys.post(quotedId) },
  counter: 'quotes_count',
});

/**
 * A post's change (item 0) with what it moves on other items (each answering its own error when
 * its condition refuses) and its events, in one transaction.
 */
async function transactPostChange(
  change: TransactItem,
  guarded: readonly GuardedItem[],
  events: OutboxEvent[],
  others: readonly TransactItem[] = [],
): Promise<void> {
  await transact([change, ...guarded.map((g) => g.item), ...others, ...events.map(outboxItem)], (index) =>
    index === 0 ? changedMeanwhile() : (guarded[index - 1]?.refused() ?? changedMeanwhile()),
  );
}

/** The post's put, carrying the author's card. */
function putPostWithCard(post: PostRecord, author: ProfileRecord): TransactItem {
  const put = putTransactItem(entities.post, post);
  return { Put: { ...put.Put!, Item: { ...put.Put!.Item, [TABLE.authorCardAttribute]: author } } };
}

/**
 * Puts the post with its images' media attached. A published post counts on the post it replies
 * to or quotes at once; a draft when it is published.
 */
export async function createPost(
  post: PostRecord,
  author: ProfileRecord,
  images: readonly ReadyMedia[],
  events: OutboxEvent[],
): Promise<void> {
  const counts = post.status === 'published' ? countsOnRelated(post, 1) : [];
  await transactPostChange(putPostWithCard(post, author), [...counts, ...attachPostImages(post, images)], events);
}

export function getPost(id: string, consistent = false, reads?: ReadBatch): Promise<PostRecord | undefined> {
  return getItem(entities.post, keys.post(id), { consistent, reads });
}

export interface PostWithCard {
  post: PostRecord;
  author: ProfileRecord;
}

/** A post item's record and the author card it carries. */
export const withCard = (item: Record<string, unknown>): PostWithCard => ({
  post: recordOf(entities.post, item),
  author: item[TABLE.authorCardAttribute] as ProfileRecord,
});

/**
 * The posts of these ids that exist, each with its author's card, in the order of `ids`: one
 * BatchGetItem per 100 (`consistent`: a post deleted or edited just now reads so).
 */
export async function getPostsWithCards(
  ids: readonly string[],
  options: { consistent?: boolean } = {},
): Promise<PostWithCard[]> {
  if (ids.length === 0) return [];
  const found = await batchGet(
    ids.map((id) => keys.post(id)),
    options,
  );
  return ids.flatMap((id) => {
    const item = found.get(keyId(keys.post(id)));
    return item ? [withCard(item)] : [];
  });
}

/** The post with its author's card as the post item carries it (both undefined when there is no post). */
export type PostRead = (PostWithCard | { post: undefined; author: undefined }) & {
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
  if (reads && reactionKey) {
    const [postItem, reaction] = await Promise.all([reads.get(postKey), reads.get(reactionKey)]);
    item = postItem;
    liked = reaction !== undefined;
  } else if (reads) {
    item = await reads.get(postKey);
    liked = false;
  } else {
    const found = await batchGet(reactionKey ? [postKey, reactionKey] : [postKey]);
    item = found.get(keyId(postKey));
    liked = reactionKey !== undefined && found.has(keyId(reactionKey));
  }
  if (!item) return { post: undefined, author: undefined, liked };
  return { ...withCard(item), liked };
}

/**
 * Copies the profile into the card of each of its published posts (drafts get a fresh card when
 * published). Guarded by the profile's updated_at, so a late or replayed stream record never puts
 * an older card over a newer one. Returns how many posts were refreshed.
 */
/** Cards refreshed at once: an author's page of posts may hold hundreds. */
const CARDS_AT_ONCE = 16;

export async function refreshAuthorCards(profile: ProfileRecord): Promise<number> {
  let refreshed = 0;
  const pages = queryPathPages(entities.post, 'byAuthor', { profile_id: profile.id }, { attributes: ['id'] });
  const olderCard = when.compare(`${TABLE.authorCardAttribute}.updated_at`, '<=', profile.updated_at);
  for await (const page of pages) {
    const results = await mapLimit(page, CARDS_AT_ONCE, (post) =>
      conditionHeld(
        sendUpdate({
          key: keys.post(post.id),
          set: { [TABLE.authorCardAttribute]: profile },
          when: [when.exists(), olderCard],
        }),
      ),
    );
    refreshed += results.filter(Boolean).length;
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
  const published = changes.publishAt
    ? ({ ...before, status: 'published', published_at: changes.publishAt } as const)
    : undefined;
  // A published post's new body is an edit: its earlier version is kept (one more write), and the
  // post must not have moved since it was read, so racing edits each keep what they replaced.
  const edited = before.status === 'published' && changes.body !== undefined && changes.body !== before.body;
  const change: TransactItem = {
    Update: updateRequest({
      key: keys.post(before.id),
      set: {
        updated_at: updatedAt,
        body: changes.body,
        hashtags: changes.body === undefined ? undefined : extractHashtags(changes.body),
        edited_at: edited ? updatedAt : undefined,
        ...(published && {
          status: published.status,
          published_at: published.published_at,
          ...indexAttributes(entities.post, published),
          [TABLE.authorCardAttribute]: changes.author,
        }),
      },
      when: [
        when.exists(),
        when.is('status', before.status),
        ...(edited ? [when.is('updated_at', before.updated_at)] : []),
      ],
    }),
  };
  await transactPostChange(
    change,
    changes.publishAt ? countsOnRelated(before, 1) : [],
    events,
    edited ? [versionItem(versionOf(before, updatedAt))] : [],
  );
  return (await getPost(before.id, true))!;
}

/**
 * Sets status `removed` and takes the post out of every list; a published reply or quote no longer
 * counts on the post it replied to or quoted; its images are released (their files deleted 30
 * days later, so pages that still show them keep working meanwhile).
 */
export async function removePost(before: PostRecord, updatedAt: string): Promise<PostRecord> {
  const { change, counts, others } = removalOf(before, updatedAt, 'author');
  await transactPostChange(change, counts, [], others);
  return (await getPost(before.id, true))!;
}

/** A removal's writes: the post's change (off every list), what it uncounts, its images' release. */
function removalOf(before: PostRecord, updatedAt: string, removedBy: RemovedBy) {
  const removed = { ...before, status: 'removed', updated_at: updatedAt, removed_by: removedBy } as const;
  const change: TransactItem = {
    Update: updateRequest({
      key: keys.post(before.id),
      set: { status: removed.status, updated_at: removed.updated_at, removed_by: removed.removed_by },
      // Off every list it was on.
      remove: indexChanges(entities.post, removed).remove,
      when: [when.exists(), when.is('status', before.status)],
    }),
  };
  const counts = before.status === 'published' ? countsOnRelated(before, -1) : [];
  return { change, counts, others: releasePostImages(before, new Date(updatedAt)) };
}

/** The writes of a moderator's removal of the post, for the transaction that resolves its reports. */
export function moderationRemovalItems(before: PostRecord, updatedAt: string): TransactItem[] {
  const { change, counts, others } = removalOf(before, updatedAt, 'moderation');
  return [change, ...counts.map((guarded) => guarded.item), ...others];
}

/**
 * The writes of an erasure's deletion of the post (store/erasure-items.ts): the item, what a
 * published reply or quote counts on its parent or quoted post, its images' claims. The media
 * items are the erasure's own (their author's); their files go with them.
 */
export function erasedPostItems(post: PostRecord): TransactItem[] {
  const counts = post.status === 'published' ? countsOnRelated(post, -1).map((guarded) => guarded.item) : [];
  const claims: TransactItem[] = post.images.map((image) => ({
    Delete: { TableName: tableName(), Key: keys.postImageClaim(image.id) },
  }));
  // Conditioned on the post still there: a replayed step uncounts nothing twice.
  return [{ Delete: { ...conditionRequest(when.exists()), Key: keys.post(post.id) } }, ...counts, ...claims];
}

/** A profile's published posts, newest first. */
export function listProfilePosts(profileId: string, request: PageRequest): Promise<Page<PostRecord>> {
  return pathPage(entities.post, 'byAuthor', { profile_id: profileId }, request, { order: 'newest_first' });
}

/** A profile's drafts, newest first (only its own credential reads them: the export). */
export function listProfileDrafts(profileId: string, request: PageRequest): Promise<Page<PostRecord>> {
  return pathPage(entities.post, 'draftsOf', { profile_id: profileId }, request, { order: 'newest_first' });
}

/** The published quotes of a post, newest first, each with its author's card. */
export function listPostQuotes(postId: string, request: PageRequest): Promise<Page<PostWithCard>> {
  return pathPage(entities.post, 'quotesOf', { quoted_post_id: postId }, request, {
    order: 'newest_first',
    read: withCard,
  });
}
