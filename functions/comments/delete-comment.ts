import { readableComment, requireCommentDeleter } from '../../shared/auth/comment-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { routes } from '../../shared/http/contract/routes/comments.js';
import { commentNotPublished, deleteComment } from '../../shared/store/comment-changes.js';
import { getComment } from '../../shared/store/comments.js';

/**
 * Its author, the post's author or a moderator deletes the comment. A deleted comment (kept for
 * its replies) answers the same again without moving anything; one removed by moderation is 409.
 */
export const handler = httpHandler(routes.deleteComment, async ({ params, auth, now, viewer, reads }) => {
  const acting = auth.actingProfile;
  const { comment, post } = await readableComment(params.comment_id, acting.id, viewer, reads, true);
  // A reply's event goes to its parent's author, as its comment.reply went: read beside the check.
  const [parent] = await Promise.all([
    comment.parent_comment_id ? getComment(comment.parent_comment_id, false, reads) : Promise.resolve(undefined),
    requireCommentDeleter(comment, post, acting.id, auth.principal),
  ]);
  if (comment.status === 'deleted') return { deleted: true as const };
  if (comment.status !== 'published') throw commentNotPublished();
  const at = now.toISOString();
  await deleteComment(comment, at, socialEvents.commentDeleted(comment, post, parent, acting.id, at));
  return { deleted: true as const };
});
