/** The feed queue's consumer: one message's inbox writes, or one page of a read-time author's walk over its followers. */
import type { FeedMessage, FeedQueue } from '../ports/feed-queue.js';
import { addLargeAuthor, putFeedEntry } from '../store/feed.js';
import { followerIdsPage } from '../store/follows.js';
import { mapLimit } from '../pipeline/concurrency.js';

/** Followers one walk message covers before it hands the rest on (a message's work stays a few seconds). */
export const WALK_PAGE = 1000;
/** Read-time author sets updated at once within one walk message. */
const WALK_UPDATES_AT_ONCE = 16;

export async function writeFeedMessage(
  message: FeedMessage,
  queue: FeedQueue,
  settings: { walkPage: number } = { walkPage: WALK_PAGE },
): Promise<void> {
  if (message.kind === 'post') {
    const { post_id, published_at } = message;
    return putFeedEntry(message.reader_ids, { post_id, published_at });
  }
  const page = await followerIdsPage(message.author_id, { limit: settings.walkPage, after: message.after });
  await mapLimit(page.ids, WALK_UPDATES_AT_ONCE, (reader) => addLargeAuthor(reader, message.author_id));
  if (page.next) await queue.send([{ kind: 'read_time_author', author_id: message.author_id, after: page.next }]);
}
