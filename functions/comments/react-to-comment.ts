import { newReaction } from '../../shared/domain/posts.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import type { PrefetchRequest } from '../../shared/http/middleware/prefetch.js';
import { getComment } from '../../shared/store/comments.js';
import { keys } from '../../shared/store/keys.js';
import { setReaction } from '../../shared/store/reactions.js';
import type { ReadBatch } from '../../shared/store/read-batch.js';
import { routes } from '../../shared/http/contract/routes/comments.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';
import { commentIsLive } from '../../shared/safety/suspension.js';

/** The comment, read in the credential's BatchGetItem: its count before this change. */
const readComment = ({ params }: PrefetchRequest<typeof routes.reactToComment>, reads: ReadBatch) =>
  getComment(params.comment_id, true, reads);

/**
 * Same rules as the post reaction: idempotent, reactions_count folded behind it, the answer's count
 * the one read plus this change. A comment whose author or post's author is suspended is not found.
 */
export const handler = httpHandler(
  routes.reactToComment,
  async ({ params, body, auth, now, prefetched, viewer: hidden, reads }) => {
    const comment = await prefetched;
    if (!comment || !(await commentIsLive(comment, reads))) throw notFound('Comment');
    // Across a block a like is refused; taking back a like given before the block is not.
    if (body.active) refuseIfBlocked(hidden, comment.profile_id);
    const viewer = auth.actingProfile;
    const outcome = await setReaction(
      keys.commentReaction(params.comment_id, viewer.id),
      newReaction(now, viewer, body.reaction_type),
      body.active,
    );
    const delta = outcome === 'changed' ? (body.active ? 1 : -1) : 0;
    return {
      comment_id: comment.id,
      reactions_count: Math.max(0, comment.reactions_count + delta),
      viewer_reaction: body.active ? body.reaction_type : null,
    };
  },
  { prefetch: readComment },
);
