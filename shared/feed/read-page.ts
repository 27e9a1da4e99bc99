/**
 * One page of a reader's home feed. The first round trip is the reader's inbox (one Query) beside
 * the request's own BatchGetItem, which also reads the reader's read-time authors; then, only for
 * a reader who follows such authors, one Query per author; then one consistent BatchGetItem for
 * the page's posts, the reader's reactions to them and the reader's follows of their authors.
 * Entries whose post is gone, removed, or by an author the reader no longer follows are left out
 * and deleted behind the read.
 */
import type { ProfileRecord } from '../domain/entities.js';
import {
  decodeFeedCursor,
  encodeFeedCursor,
  FEED_MAX_ENTRIES,
  feedWindowStart,
  mergeFeedPage,
  pageSize,
  type FeedCursor,
  type SourceRead,
} from '../domain/feed.js';
import type { PostRecord } from '../domain/posts.js';
import { logger } from '../logger.js';
import {
  deleteFeedEntries,
  hydrateFeed,
  largeAuthorsOf,
  readAuthorPosts,
  readInbox,
  removeLargeAuthors,
} from '../store/feed.js';
import type { ReadBatch } from '../store/read-batch.js';

/** The first round trip's reads of a page, for one reader. */
export interface FeedPageStart {
  readerId: string;
  cursor: FeedCursor;
  size: number;
  oldest: string;
  inbox: SourceRead;
  readTimeAuthors: string[];
}

export interface FeedItem {
  post: PostRecord;
  author: ProfileRecord;
  liked: boolean;
}

/**
 * Starts a page: the inbox Query now, the read-time authors in `reads` (the same tick as the
 * request's credential and acting profile, so in their BatchGetItem). A cursor this feed did not
 * hand out rejects with `invalid_request`.
 */
export async function startFeedPage(
  readerId: string,
  request: { limit: number; cursor?: string | undefined },
  reads: ReadBatch,
  now = new Date(),
): Promise<FeedPageStart> {
  const cursor = decodeFeedCursor(request.cursor);
  const size = pageSize(request.limit, cursor.served);
  const oldest = feedWindowStart(now);
  const [inbox, readTimeAuthors] = await Promise.all([
    readInbox(readerId, cursor.before, size, oldest),
    largeAuthorsOf(readerId, reads),
  ]);
  return { readerId, cursor, size, oldest, inbox, readTimeAuthors };
}

/** Finishes a started page for `reader` (the profile `start` was read for): merge, hydrate, filter, clean up. */
export async function finishFeedPage(
  start: FeedPageStart,
  reader: ProfileRecord,
): Promise<{ items: FeedItem[]; next_cursor: string | null }> {
  const { cursor, size, oldest, readTimeAuthors } = start;
  const authorReads =
    size > 0
      ? await Promise.all(readTimeAuthors.map((author) => readAuthorPosts(author, cursor.before, size, oldest)))
      : [];
  const page = mergeFeedPage([start.inbox, ...authorReads], size);
  const authorIds = [...new Set([...page.items.map((c) => c.author_id), ...readTimeAuthors])];
  const { posts, liked, followed } = await hydrateFeed(reader.id, page.items, authorIds);

  const answered = page.items.filter((c) => {
    const post = posts.get(c.post_id)?.post;
    return post?.status === 'published' && post.kind === 'post' && followed.has(c.author_id);
  });
  const stale = page.items.filter((c) => c.source === 'inbox' && !answered.includes(c));
  const unfollowed = readTimeAuthors.filter((author) => !followed.has(author));
  if (stale.length > 0 || unfollowed.length > 0) {
    // Behind the read: the page is right without it, and a failure here is made good by a later read.
    await Promise.all([deleteFeedEntries(reader.id, stale), removeLargeAuthors(reader.id, unfollowed)]).catch(
      (error: unknown) => logger.warn('feed clean-up failed', { reader_id: reader.id, error: error as Error }),
    );
  }

  const served = cursor.served + page.items.length;
  return {
    items: answered.map((c) => {
      const { post, card } = posts.get(c.post_id)!;
      // The reader's own posts show the reader's profile as it is now, not as the card has it.
      return { post, author: c.author_id === reader.id ? reader : card, liked: liked.has(c.post_id) };
    }),
    next_cursor:
      page.next !== undefined && served < FEED_MAX_ENTRIES ? encodeFeedCursor({ before: page.next, served }) : null,
  };
}
