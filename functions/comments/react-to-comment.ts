import { newReaction } from '../../shared/domain/posts.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { getComment } from '../../shared/store/comments.js';
import { keys } from '../../shared/store/keys.js';
import { commentReactionTarget, setReaction } from '../../shared/store/reactions.js';
import { routes } from '../../shared/http/contract/routes/comments.js';

/** Same rules as the post reaction: idempotent, reactions_count exact. */
export const handler = httpHandler(routes.reactToComment, async ({ params, body, auth, now }) => {
  const viewer = auth.actingProfile;
  const outcome = await setReaction(
    commentReactionTarget(params.comment_id),
    keys.commentReaction(params.comment_id, viewer.id),
    newReaction(now, viewer.id, body.reaction_type),
    body.active,
  );
  const comment = outcome === 'target_missing' ? undefined : await getComment(params.comment_id, true);
  if (!comment) throw notFound('Comment');
  return {
    comment_id: comment.id,
    reactions_count: comment.reactions_count,
    viewer_reaction: body.active ? body.reaction_type : null,
  };
});
