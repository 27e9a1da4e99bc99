/**
 * A profile's logged events as every transport answers them (the poll, SSE, the MCP tool through
 * the poll, the AppSync publisher). A `feed.post` is logged by reference (domain/live-events.ts
 * FeedPostReference): its post is read here, with the author's card the post item carries (one
 * consistent BatchGetItem for all of a page's), and presented as the feed presents it. One whose
 * post is gone, no longer published, or by a suspended author is left out, and so is any event the
 * profile's blocks and mutes now hide (domain/live-event-safety.ts). A left-out event stays in the
 * log until its TTL: deleting it would open a gap in the log's numbers, which a cursor's check
 * reads as events lost (domain/live-events.ts isOlderThanLog).
 */
import { shownUnderSafety } from '../domain/live-event-safety.js';
import { referencedPost, type LiveEvent } from '../domain/live-events.js';
import { isSuspended } from '../domain/reports.js';
import { viewerFilterOf, type ViewerFilter } from '../domain/safety.js';
import { presentPostWithProfile } from '../http/present/posts.js';
import { getPostsWithCards, type PostWithCard } from '../store/posts.js';
import { loadSafetySets } from '../store/safety.js';

/** The event with its post presented, or undefined when the post is not to be shown. */
function presented<E extends LiveEvent>(event: E, posts: ReadonlyMap<string, PostWithCard>): E | undefined {
  const postId = referencedPost(event);
  if (postId === undefined) return event;
  const read = posts.get(postId);
  if (read?.post.status !== 'published' || isSuspended(read.author)) return undefined;
  return { ...event, data: presentPostWithProfile(read.post, read.author) };
}

/**
 * The events, in their order, as answered; those not to be shown left out. `viewer`: the
 * profile's blocks and mutes when the caller read them already (the reads load them beside the
 * log); otherwise they are read here beside the posts, and only when a `feed.post` needs them: the
 * other events were checked against them when logged, moments before they are published.
 */
export async function presentEvents<E extends LiveEvent>(
  profileId: string,
  events: readonly E[],
  viewer?: ViewerFilter,
): Promise<E[]> {
  const postIds = [...new Set(events.map(referencedPost).filter((id) => id !== undefined))];
  const [posts, shownTo] = await Promise.all([
    getPostsWithCards(postIds, { consistent: true }),
    viewer ?? (postIds.length > 0 ? loadSafetySets(profileId).then(viewerFilterOf) : undefined),
  ]);
  const byId = new Map(posts.map((read) => [read.post.id, read]));
  return events.flatMap((event) => {
    const shown = presented(event, byId);
    return shown && (!shownTo || shownUnderSafety(shown, shownTo)) ? [shown] : [];
  });
}
