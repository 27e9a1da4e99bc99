import { isVisibleTo } from '../../shared/domain/posts.js';
import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentVersion } from '../../shared/http/present/versions.js';
import { routes } from '../../shared/http/contract/routes/posts.js';
import { listVersions } from '../../shared/store/versions.js';
import { readPostWithCard } from '../../shared/safety/suspension.js';

/**
 * Public: the post's earlier versions, newest first, for whoever may read the post (as GET
 * /v1/posts/{post_id} judges it: its author also for a removed post, no one across a block).
 */
export const handler = httpHandler(routes.listPostHistory, async ({ params, query, auth, viewer, reads }) => {
  const [{ post, author }, page] = await Promise.all([
    readPostWithCard(params.post_id, reads),
    listVersions(params.post_id, query),
  ]);
  const viewerId = auth.actingProfile?.id;
  if (!post || !isVisibleTo(post, viewerId) || isSuspended(author) || viewer.isBlockedWith(post.profile_id)) {
    throw notFound('Post');
  }
  return { items: page.items.map(presentVersion), next_cursor: page.next_cursor };
});
