import { readableComment, requireCommentAuthor } from '../../shared/auth/comment-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentComment } from '../../shared/http/present/comments.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { routes } from '../../shared/http/contract/routes/comments.js';
import { commentNotPublished, editComment } from '../../shared/store/comment-changes.js';
import { likedComments } from '../../shared/store/comments.js';

/**
 * The author edits the body; the version it replaces is kept in the same transaction (one more
 * write per edit). Someone else who can read the comment is refused, whoever cannot gets 404.
 */
export const handler = httpHandler(routes.updateComment, async ({ params, body, auth, now, viewer, reads }) => {
  const author = auth.actingProfile;
  const { comment: before } = await readableComment(params.comment_id, author.id, viewer, reads);
  requireCommentAuthor(before, author.id);
  if (before.status !== 'published') throw commentNotPublished();
  const [comment, liked] = await Promise.all([
    editComment(before, body.body, now.toISOString()),
    likedComments([before.id], author.id),
  ]);
  return { comment: presentComment(comment, liked.has(comment.id)), profile: presentProfile(author) };
});
