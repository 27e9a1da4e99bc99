/**
 * The home feed's rules (no AWS, no HTTP): its limits, which post writes put a post into feeds,
 * the cursor, and how one page is merged from the reader's inbox and the authors read at read time.
 *
 * Every source of a feed is ordered by the same position, `<published_at>#<post_id>` (the inbox
 * entry's sort key and the profile posts index's sort key alike), so one position says where a
 * page ends in all of them.
 */
import * as z from 'zod/mini';
import { invalidCursor } from '../errors.js';
import type { ProfileRecord } from './entities.js';
import type { PostRecord } from './posts.js';
import { isSuspended } from './reports.js';

/** The newest entries a reader's feed answers (Twitter's timelines and Mastodon's FeedManager::MAX_ITEMS). */
export const FEED_MAX_ENTRIES = 800;
/** Days an inbox entry is kept (DynamoDB TTL); older posts are not answered from any source. */
export const FEED_ENTRY_DAYS = 30;
/** A new follow brings at most this many of the author's recent posts into the reader's inbox. */
export const FEED_BACKFILL_POSTS = 50;
/** Readers named in one queue message of a post's fan-out (about 4 KB of ids; 4 BatchWriteItems). */
export const FAN_OUT_READERS_PER_MESSAGE = 100;

/**
 * One post in one reader's inbox: the post's id and publication time (the entry's position and
 * expiry), nothing that names its author. A page learns the author from the post, so an erased
 * author's posts leave in followers' inboxes only ids that resolve to nothing: left out of the
 * page and deleted behind it, the rest expiring. An erasure is O(posts), not O(posts × followers).
 */
export interface FeedEntry {
  post_id: string;
  published_at: string;
}

/**
 * An inbox entry as stored: a follower's, or the author's own (`own: true`, in its own inbox),
 * which the fan-out writes last as its mark of a post handed over completely, and which tells
 * the live event log's consumer that it is no news to its reader.
 */
export interface FeedEntryRecord extends FeedEntry {
  own?: true;
}

/** A post published into feeds, with its author: what the fan-out works from (never stored in a follower's inbox). */
export interface FeedPost extends FeedEntry {
  author_id: string;
}

/** The oldest publication time a feed answers at `now`. */
export const feedWindowStart = (now: Date): string =>
  new Date(now.getTime() - FEED_ENTRY_DAYS * 86_400_000).toISOString();

/** The post fields a stream record's image must carry for the fan-out to decide on it. */
export type PublishedPostImage = Pick<
  PostRecord,
  'id' | 'profile_id' | 'kind' | 'status' | 'published_at' | 'created_at' | 'updated_at'
>;

/**
 * Whether a write of a post item (a stream record: INSERT or MODIFY, with the new image) is the
 * moment the post was published as a feed post: created published, or a draft published. Replies
 * are not feed posts; quotes are (kind `post`). Other writes of a published post leave `updated_at`
 * behind `published_at` (an edit) or leave both where creation put them (a counter); the one
 * ambiguous case, a counter change of a draft-published post never edited since, is told apart by
 * the fan-out itself (it finds its own earlier work).
 */
export function publishesIntoFeeds(eventName: string | undefined, post: PublishedPostImage): boolean {
  if (post.kind !== 'post' || post.status !== 'published' || !post.published_at) return false;
  if (eventName === 'INSERT') return true;
  return eventName === 'MODIFY' && post.published_at === post.updated_at && post.published_at !== post.created_at;
}

/** Where a page starts: below `before` (none: the newest), after `served` entries already answered. */
export interface FeedCursor {
  before: string | undefined;
  served: number;
}

const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#[0-9a-f-]{36}$/;

export const encodeFeedCursor = (cursor: { before: string; served: number }): string =>
  Buffer.from(JSON.stringify({ b: cursor.before, n: cursor.served })).toString('base64url');

/** The cursor's JSON, checked whole: an extra or missing field is not a cursor this feed handed out. */
const FeedCursorJson = z.strictObject({
  b: z.string().check(z.regex(POSITION)),
  n: z.int().check(z.minimum(0), z.maximum(FEED_MAX_ENTRIES)),
});

/** The cursor `next_cursor` handed out, or `invalid_request`; no cursor is the first page. */
export function decodeFeedCursor(text: string | undefined): FeedCursor {
  if (text === undefined) return { before: undefined, served: 0 };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const cursor = FeedCursorJson.safeParse(value);
  if (!cursor.success) throw invalidCursor();
  return { before: cursor.data.b, served: cursor.data.n };
}

/** How many entries this page may answer: the limit asked for, within the feed's newest 800. */
export const pageSize = (limit: number, served: number): number =>
  Math.max(0, Math.min(limit, FEED_MAX_ENTRIES - served));

/** An entry as a source read it: its position and what the page needs to hydrate it (its author comes with its post). */
export interface FeedCandidate extends FeedEntry {
  position: string;
  /** From the reader's inbox (a stale one is deleted behind the read) or from an author's own posts. */
  source: 'inbox' | 'author';
}

/**
 * Whether a candidate's post, as read with its author's card, may be in a feed: published, a
 * post (not a reply), by an author not suspended. Whether the reader still follows the author,
 * and whether its blocks or mutes hide it, are the page's to check.
 */
export const feedShows = (post: PostRecord, card: ProfileRecord | undefined): boolean =>
  post.status === 'published' && post.kind === 'post' && !isSuspended(card);

/**
 * What one source returned for a page, newest first, every position below the page's start.
 * `coveredTo`: the position down to which the source was read completely, when it has more below
 * (it stopped at its limit, or its filter left out what it read); undefined when it has no more.
 */
export interface SourceRead {
  items: FeedCandidate[];
  coveredTo: string | undefined;
}

/**
 * One page: the newest `size` candidates of all sources, each post once (an inbox entry wins over
 * the same post read from its author), and the position the next page starts below (undefined:
 * no more). A source with more below its last read item bounds the page: nothing older than what
 * it covered can be answered before it is read further, so such a page may be shorter than `size`.
 */
export function mergeFeedPage(
  sources: readonly SourceRead[],
  size: number,
): { items: FeedCandidate[]; next: string | undefined } {
  const bounds = sources.flatMap((s) => (s.coveredTo === undefined ? [] : [s.coveredTo]));
  const floor = bounds.length > 0 ? bounds.reduce((a, b) => (a > b ? a : b)) : undefined;
  const seen = new Set<string>();
  const merged = sources
    .flatMap((s) => s.items)
    .sort((a, b) => (a.position === b.position ? (a.source === 'inbox' ? -1 : 1) : a.position > b.position ? -1 : 1))
    .filter((c) => {
      if (seen.has(c.post_id)) return false;
      seen.add(c.post_id);
      return true;
    });
  const eligible = floor === undefined ? merged : merged.filter((c) => c.position >= floor);
  const items = eligible.slice(0, size);
  if (size > 0 && items.length === size && (eligible.length > size || floor !== undefined))
    return { items, next: items.at(-1)!.position };
  return { items, next: items.length < size ? floor : undefined };
}
