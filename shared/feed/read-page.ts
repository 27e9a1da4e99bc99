/**
 * One page of a reader's home feed. The first round trip is the reader's inbox (one Query) beside
 * the request's own BatchGetItem, which also reads the reader's read-time authors; then, only for
 * a reader who follows such authors, one Query per author; then one consistent BatchGetItem for
 * the page's posts, the reader's reactions to them and the reader's follows of the read-time
 * authors; then one more for the reader's follows of the posts' other authors.
 *
 * That last round trip is the price of inbox entries that name no author (docs/decisions.md
 * "Feed inbox entries name no author"): the author is learnt from the post, so erasing an author
 * deletes its posts and nothing in its followers' inboxes (O(posts), not O(posts × followers));
 * an entry whose post is gone is a dangling id, left out here. No call is made when every post
 * that may be shown is the reader's own or a read-time author's.
 *
 * These are reads, started before the caller is authenticated (the route's prefetch), so a
 * session's membership check runs beside them. Entries whose post is gone, removed, or by an
 * author the reader no longer follows are left out once the caller is known, and deleted behind.
 */
import type { ProfileRecord } from '../domain/entities.js';
import type { ViewerFilter } from '../domain/safety.js';
import {
  decodeFeedCursor,
  encodeFeedCursor,
  FEED_MAX_ENTRIES,
  feedShows,
  feedWindowStart,
  mergeFeedPage,
  pageSize,
  type FeedCandidate,
  type FeedCursor,
} from '../domain/feed.js';
import type { PostRecord } from '../domain/posts.js';
import { logger } from '../logger.js';
import {
  deleteFeedEntries,
  hydrateFeed,
  type FeedHydration,
  largeAuthorsOf,
  readAuthorPosts,
  readInbox,
  removeLargeAuthors,
} from '../store/feed.js';
import type { ReadBatch } from '../store/read-batch.js';

/** What a page read for one reader: its entries in order, and what they were checked against. */
export interface FeedPageRead {
  readerId: string;
  cursor: FeedCursor;
  page: { items: FeedCandidate[]; next: string | undefined };
  readTimeAuthors: string[];
  hydration: FeedHydration;
}

export interface FeedItem {
  post: PostRecord;
  author: ProfileRecord;
  liked: boolean;
}

/**
 * Reads a page for `readerId`: the inbox Query at once, the read-time authors in `reads` (the same
 * tick as the request's credential and acting profile, so in their BatchGetItem); then their
 * posts, if any; then the page's posts, the reader's reactions and follows (see hydrateFeed).
 * Reads only: it may run before the caller is known to be that reader (see answerFeedPage). A
 * cursor this feed did not hand out rejects with `invalid_request`.
 */
export async function readFeedPage(
  readerId: string,
  request: { limit: number; cursor?: string | undefined },
  reads: ReadBatch,
  now = new Date(),
): Promise<FeedPageRead> {
  const cursor = decodeFeedCursor(request.cursor);
  const size = pageSize(request.limit, cursor.served);
  const oldest = feedWindowStart(now);
  const [inbox, readTimeAuthors] = await Promise.all([
    readInbox(readerId, cursor.before, size, oldest),
    largeAuthorsOf(readerId, reads),
  ]);
  const authorReads =
    size > 0
      ? await Promise.all(readTimeAuthors.map((author) => readAuthorPosts(author, cursor.before, size, oldest)))
      : [];
  const page = mergeFeedPage([inbox, ...authorReads], size);
  return {
    readerId,
    cursor,
    page,
    readTimeAuthors,
    hydration: await hydrateFeed(readerId, page.items, readTimeAuthors),
  };
}

/**
 * The page for `reader` (the profile it was read for, now known to be the caller): entries whose
 * post is gone or removed, or whose author the reader no longer follows, are left out and deleted
 * behind the read, with the read-time authors the reader no longer follows. Posts by authors the
 * reader's blocks or mutes hide are left out too, in memory (the page may hold fewer than asked),
 * and stay in the inbox: a mute lifted brings them back.
 */
export async function answerFeedPage(
  read: FeedPageRead,
  reader: ProfileRecord,
  viewer: ViewerFilter,
): Promise<{ items: FeedItem[]; next_cursor: string | null }> {
  const { cursor, page, readTimeAuthors } = read;
  const { posts, liked, followed } = read.hydration;
  // The author is the post's: an entry names none.
  const answered = page.items.flatMap((c) => {
    const read = posts.get(c.post_id);
    return read && feedShows(read.post, read.card) && followed.has(read.post.profile_id) ? [read] : [];
  });
  const answeredIds = new Set(answered.map(({ post }) => post.id));
  const stale = page.items.filter((c) => c.source === 'inbox' && !answeredIds.has(c.post_id));
  const shown = answered.filter(({ post }) => !viewer.hidesAuthor(post.profile_id));
  const unfollowed = readTimeAuthors.filter((author) => !followed.has(author));
  if (stale.length > 0 || unfollowed.length > 0) {
    // Behind the read: the page is right without it, and a failure here is made good by a later read.
    await Promise.all([deleteFeedEntries(reader.id, stale), removeLargeAuthors(reader.id, unfollowed)]).catch(
      (error: unknown) => logger.warn('feed clean-up failed', { reader_id: reader.id, error: error as Error }),
    );
  }

  const served = cursor.served + page.items.length;
  return {
    // The reader's own posts show the reader's profile as it is now, not as the card has it.
    items: shown.map(({ post, card }) => ({
      post,
      author: post.profile_id === reader.id ? reader : card,
      liked: liked.has(post.id),
    })),
    next_cursor:
      page.next !== undefined && served < FEED_MAX_ENTRIES ? encodeFeedCursor({ before: page.next, served }) : null,
  };
}
