/**
 * The home feed's items: each reader's inbox (one small item per post fanned out to them, naming
 * no author: see FeedEntry), the set of followed authors a reader's feed merges at read time, and
 * the mark of such an author. Posts, reactions and follows are read through their own stores' keys.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ProfileRecord } from '../domain/entities.js';
import {
  feedShows,
  type FeedCandidate,
  type FeedEntry,
  type FeedEntryRecord,
  type FeedPost,
  type SourceRead,
} from '../domain/feed.js';
import type { PostRecord } from '../domain/posts.js';
import { batchGet, batchWrite, keyId, type BatchWriteSettings, type WriteRequest } from './batch.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { followKey } from './follows.js';
import { conditionHeld } from './conditional.js';
import { when } from './expressions.js';
import { itemOf, putItem, recordOf } from './items.js';
import { entityTags, keys } from './keys.js';
import { postReactionKey } from './reactions.js';
import type { ReadBatch } from './read-batch.js';
import { pathQuery, type PathQuery } from './paths.js';
import { TABLE } from './table.js';
import { sendUpdate } from './update.js';

/**
 * The put of an entry into one reader's inbox, its fields picked: nothing else a caller's object
 * carries (a post's author, a message's readers) is stored. `own`: the author's own entry.
 */
function entryPut(readerId: string, { post_id, published_at }: FeedEntry, own = false): WriteRequest {
  const entry: FeedEntryRecord = own ? { post_id, published_at, own } : { post_id, published_at };
  return { PutRequest: { Item: itemOf(entities.feedEntry(readerId), entry) } };
}

/** Puts a follower's entry of the post into each reader's inbox (BatchWriteItem, with retries of what DynamoDB leaves unprocessed). */
export function putFeedEntry(readerIds: readonly string[], entry: FeedEntry, settings?: BatchWriteSettings) {
  return batchWrite(
    readerIds.map((readerId) => entryPut(readerId, entry)),
    settings,
  );
}

/** Puts the author's own entry of its post into its own inbox, marked `own: true`. */
export function putOwnFeedEntry(post: FeedPost) {
  return batchWrite([entryPut(post.author_id, post, true)]);
}

/** Puts followers' entries into one reader's inbox (a new follow's backfill). */
export function putFeedEntries(readerId: string, entries: readonly FeedEntry[], settings?: BatchWriteSettings) {
  return batchWrite(
    entries.map((entry) => entryPut(readerId, entry)),
    settings,
  );
}

/** Takes entries out of one reader's inbox. */
export function deleteFeedEntries(readerId: string, entries: readonly FeedEntry[]): Promise<void> {
  return batchWrite(
    entries.map((e) => ({ DeleteRequest: { Key: keys.feedEntry(readerId, e.published_at, e.post_id) } })),
  );
}

/**
 * Whether the author's own inbox holds the entry, and whether the author is merged at read time:
 * one consistent BatchGetItem. The fan-out writes the author's own entry last, so finding it means
 * the post's fan-out was handed over completely.
 */
export async function fanOutState(post: FeedPost): Promise<{ done: boolean; readTime: boolean }> {
  const own = keys.feedEntry(post.author_id, post.published_at, post.post_id);
  const mode = keys.feedAuthorMode(post.author_id);
  const found = await batchGet([own, mode], { consistent: true });
  return { done: found.has(keyId(own)), readTime: found.has(keyId(mode)) };
}

/** Whether the author's posts are merged at read time. */
export async function isReadTimeAuthor(authorId: string): Promise<boolean> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.feedAuthorMode(authorId), ConsistentRead: true }),
  );
  return Item !== undefined;
}

/** Marks the author as merged at read time; false when it already was (another run marked it). */
export function markReadTimeAuthor(authorId: string, now: Date): Promise<boolean> {
  return conditionHeld(putItem(entities.feedAuthorMode, { author_id: authorId, since: now.toISOString() }));
}

/** Adds the author to the reader's set of authors merged at read time (idempotent). */
export async function addLargeAuthor(readerId: string, authorId: string): Promise<void> {
  await sendUpdate({
    key: keys.feedLargeAuthors(readerId),
    set: { entity: entityTags.feedLargeAuthors },
    add: { author_ids: new Set([authorId]) },
  });
}

/** Takes authors out of the reader's set (the reader no longer follows them). */
export async function removeLargeAuthors(readerId: string, authorIds: readonly string[]): Promise<void> {
  if (authorIds.length === 0) return;
  await sendUpdate({ key: keys.feedLargeAuthors(readerId), delete: { author_ids: new Set(authorIds) } });
}

/** The followed authors the reader's feed merges at read time, read in the request's batch. */
export async function largeAuthorsOf(readerId: string, reads: ReadBatch): Promise<string[]> {
  const item = await reads.get(keys.feedLargeAuthors(readerId));
  return [...((item?.author_ids as Set<string> | undefined) ?? [])].sort();
}

/** How a source is read newest first below `before`, at most `size` items: the options of its path query. */
const sourceWindow = (before: string | undefined, size: number) =>
  ({ order: 'newest_first', pageSize: size, ...(before ? { range: { below: before } } : {}) }) as const;

/**
 * A source read (its path query, newest first below a position, at most `size` items), none
 * published before `oldest`: what it returned, and how far down it is complete when it has more
 * (see SourceRead).
 */
async function readSource(
  query: PathQuery | undefined,
  oldest: string,
  candidate: (item: Record<string, unknown>, position: string) => FeedCandidate,
): Promise<SourceRead> {
  if (!query) return { items: [], coveredTo: undefined };
  const result = await db().send(new QueryCommand({ ...query.input, TableName: tableName() }));
  const items = (result.Items ?? []).map((item) => candidate(item, item[query.sortAttribute] as string));
  const recent = items.filter((c) => c.published_at >= oldest);
  // Past the window's start there is nothing more to answer, whatever the source still holds.
  const more = result.LastEvaluatedKey !== undefined && recent.length === items.length;
  return { items: recent, coveredTo: more ? (result.LastEvaluatedKey![query.sortAttribute] as string) : undefined };
}

/** The reader's inbox below `before` (see readSource). */
export function readInbox(readerId: string, before: string | undefined, size: number, oldest: string) {
  const query =
    size > 0
      ? pathQuery(entities.feedEntry(readerId), 'inbox', { reader_id: readerId }, sourceWindow(before, size))
      : undefined;
  return readSource(query, oldest, (item, position) => ({
    position,
    post_id: item.post_id as string,
    published_at: item.published_at as string,
    source: 'inbox',
  }));
}

/** The author's published posts (replies left out) below `before`, from their posts' path (see readSource). */
export function readAuthorPosts(authorId: string, before: string | undefined, size: number, oldest: string) {
  const query =
    size > 0
      ? pathQuery(
          entities.post,
          'byAuthor',
          { profile_id: authorId },
          { ...sourceWindow(before, size), filter: when.is('kind', 'post') },
        )
      : undefined;
  return readSource(query, oldest, (item, position) => ({
    position,
    post_id: item.id as string,
    published_at: item.published_at as string,
    source: 'author',
  }));
}

/** Up to `max` of the author's published posts (not replies) since `oldest`, newest first: a new follower's backfill. */
export async function recentFeedPosts(authorId: string, max: number, oldest: string): Promise<FeedEntry[]> {
  // Replies are filtered out after the read: read enough for a thread-heavy author, once.
  const read = await readAuthorPosts(authorId, undefined, max * 2, oldest);
  return read.items.slice(0, max).map(({ post_id, published_at }) => ({ post_id, published_at }));
}

/** What a page's candidates are checked and presented with. */
export interface FeedHydration {
  /** Posts by id, with the author's card they carry. */
  posts: Map<string, { post: PostRecord; card: ProfileRecord }>;
  /** Post ids the reader likes. */
  liked: Set<string>;
  /** Authors the reader follows, of those read (the page's shown posts' and the read-time authors'), and the reader itself. */
  followed: Set<string>;
}

/**
 * The candidates' posts, the reader's reactions to them and the reader's follows of the
 * read-time authors in one consistent BatchGetItem (one per 100 keys, side by side); then, as an
 * inbox entry names no author, the reader's follows of the other authors of the posts that may be
 * shown in a second one (no call when there are none to ask). Consistent: a like, an unfollow or a
 * removal the reader just made shows on the very next page.
 */
export async function hydrateFeed(
  readerId: string,
  candidates: readonly FeedCandidate[],
  readTimeAuthors: readonly string[],
): Promise<FeedHydration> {
  const others = (authors: Iterable<string>) => [...new Set(authors)].filter((id) => id !== readerId);
  const follows = (authors: readonly string[]) => authors.map((id) => followKey(readerId, id));
  const known = others(readTimeAuthors);
  const found = await batchGet(
    [...candidates.flatMap((c) => [keys.post(c.post_id), postReactionKey(c.post_id, readerId)]), ...follows(known)],
    { consistent: true },
  );
  const posts = new Map<string, { post: PostRecord; card: ProfileRecord }>();
  for (const c of candidates) {
    const item = found.get(keyId(keys.post(c.post_id)));
    if (item)
      posts.set(c.post_id, {
        post: recordOf(entities.post, item),
        card: item[TABLE.authorCardAttribute] as ProfileRecord,
      });
  }
  const shownAuthors = [...posts.values()].filter((p) => feedShows(p.post, p.card)).map((p) => p.post.profile_id);
  const asked = others(shownAuthors).filter((id) => !known.includes(id));
  const more = await batchGet(follows(asked), { consistent: true });
  return {
    posts,
    liked: new Set(
      candidates.filter((c) => found.has(keyId(postReactionKey(c.post_id, readerId)))).map((c) => c.post_id),
    ),
    followed: new Set([
      ...known.filter((id) => found.has(keyId(followKey(readerId, id)))),
      ...asked.filter((id) => more.has(keyId(followKey(readerId, id)))),
      readerId,
    ]),
  };
}
