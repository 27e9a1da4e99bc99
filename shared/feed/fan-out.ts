/**
 * The home feed's fan-out, from the table stream: a published post goes into its followers'
 * inboxes through the feed queue (or, for an author with too many followers, is left to be merged
 * at read time); a new follow brings the author's recent posts into the follower's inbox (or adds
 * a read-time author to the follower's set). Safe to run twice on the same record.
 */
import { FAN_OUT_READERS_PER_MESSAGE, FEED_BACKFILL_POSTS, feedWindowStart, type FeedPost } from '../domain/feed.js';
import type { FollowRecord } from '../domain/social.js';
import type { FeedMessage, FeedQueue } from '../ports/feed-queue.js';
import {
  addLargeAuthor,
  fanOutState,
  isReadTimeAuthor,
  markReadTimeAuthor,
  putFeedEntries,
  putOwnFeedEntry,
  recentFeedPosts,
} from '../store/feed.js';
import { followerIds } from '../store/follows.js';

export interface FeedFanOutSettings {
  /** FEED_FANOUT_MAX_FOLLOWERS: authors with more followers are merged at read time. */
  maxFollowers: number;
}

export type FanOutOutcome = 'already_done' | 'fanned_out' | 'read_time' | 'expired';

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/**
 * A published post into its followers' inboxes (entries naming no author; the messages name
 * none either, as the writer needs none) and its author's own. The author's own entry is
 * written last, once every follower's message is on the queue: finding it, a repeated or replayed
 * stream record (or a counter change of a draft-published post) does nothing more. An author
 * found with more than `maxFollowers` followers is marked as merged at read time, once, and a walk
 * over its followers adds it to their read-time authors; its posts are not fanned out again.
 * A post older than the feed's window is in no feed: a late counter change of an old
 * draft-published post (its own entry expired with it) fans nothing out.
 */
export async function fanOutPost(
  post: FeedPost,
  queue: FeedQueue,
  settings: FeedFanOutSettings,
  now = new Date(),
): Promise<FanOutOutcome> {
  if (post.published_at < feedWindowStart(now)) return 'expired';
  const state = await fanOutState(post);
  if (state.done) return 'already_done';
  let outcome: FanOutOutcome = 'read_time';
  if (!state.readTime) {
    const followers = await followerIds(post.author_id, settings.maxFollowers + 1);
    if (followers.length <= settings.maxFollowers) {
      const { post_id, published_at } = post;
      await queue.send(
        chunks(followers, FAN_OUT_READERS_PER_MESSAGE).map((reader_ids): FeedMessage => ({
          kind: 'post',
          post_id,
          published_at,
          reader_ids,
        })),
      );
      outcome = 'fanned_out';
    } else {
      // The walk first: if marking fails, a retry sends it again (adding an author twice is harmless);
      // marked first, a failed send would never be retried.
      await queue.send([{ kind: 'read_time_author', author_id: post.author_id }]);
      await markReadTimeAuthor(post.author_id, now);
    }
  }
  await putOwnFeedEntry(post);
  return outcome;
}

/** A new follow: the author's recent posts into the follower's inbox (followers' entries), or a read-time author into the follower's set. */
export async function followIntoFeed(
  follow: Pick<FollowRecord, 'follower_profile_id' | 'followed_profile_id'>,
  now = new Date(),
): Promise<void> {
  const { follower_profile_id: reader, followed_profile_id: author } = follow;
  if (await isReadTimeAuthor(author)) return addLargeAuthor(reader, author);
  await putFeedEntries(reader, await recentFeedPosts(author, FEED_BACKFILL_POSTS, feedWindowStart(now)));
}
