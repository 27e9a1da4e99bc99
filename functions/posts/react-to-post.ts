import { newReaction } from '../../shared/domain/posts.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { keys } from '../../shared/store/keys.js';
import { setReaction } from '../../shared/store/reactions.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { routes } from '../../shared/http/contract/routes/posts.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';
import { livePost, readPostWithCard } from '../../shared/safety/suspension.js';

/**
 * The post with its author's card, read in the credential's BatchGetItem: whether it takes likes
 * (published, its author not suspended), and its count before this change.
 */
const readPost = ({ params }: PrefetchRequest<typeof routes.reactToPost>, reads: ReadBatch) =>
  readPostWithCard(params.post_id, reads);

/**
 * Sets or removes the acting profile's like of a published post: one conditional write of the
 * profile's own reaction item, idempotent. likes_count is folded from the table stream behind it;
 * the answer's count is the one read ahead plus this change.
 */
export const handler = httpHandler(
  routes.reactToPost,
  async ({ params, body, auth, now, prefetched, viewer: hidden }) => {
    const post = livePost(await prefetched);
    if (!post) throw notFound('Post');
    // Across a block a like is refused; taking back a like given before the block is not.
    if (body.active) refuseIfBlocked(hidden, post.profile_id);
    const viewer = auth.actingProfile;
    const outcome = await setReaction(
      keys.postReaction(params.post_id, viewer.id),
      newReaction(now, viewer, body.reaction_type),
      body.active,
    );
    const delta = outcome === 'changed' ? (body.active ? 1 : -1) : 0;
    return {
      post_id: post.id,
      likes_count: Math.max(0, post.likes_count + delta),
      viewer_reaction: body.active ? body.reaction_type : null,
    };
  },
  { prefetch: readPost },
);
