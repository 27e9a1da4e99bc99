import { readableComment } from '../../shared/auth/comment-access.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentVersion } from '../../shared/http/present/versions.js';
import { routes } from '../../shared/http/contract/routes/comments.js';
import { listVersions } from '../../shared/store/versions.js';

/**
 * Public: the comment's earlier versions, newest first, for whoever may read the comment (as the
 * comment list judges it). A deleted comment's body is gone, and so is its history to readers.
 */
export const handler = httpHandler(routes.listCommentHistory, async ({ params, query, auth, viewer, reads }) => {
  const { comment } = await readableComment(params.comment_id, auth.actingProfile?.id, viewer, reads);
  if (comment.status === 'deleted') throw notFound('Comment');
  const page = await listVersions(comment.id, query);
  return { items: page.items.map(presentVersion), next_cursor: page.next_cursor };
});
