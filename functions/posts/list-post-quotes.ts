import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { getPost, likedPosts, listPostQuotes } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';

/** Public: the published quotes of a published post, newest first, each with its author's card. */
export const handler = httpHandler(routes.listPostQuotes, async ({ params, query, auth }) => {
  const [quoted, page] = await Promise.all([getPost(params.post_id), listPostQuotes(params.post_id, query)]);
  if (quoted?.status !== 'published') throw notFound('Post');
  const liked = await likedPosts(
    page.items.map(({ post }) => post.id),
    auth.actingProfile?.id,
  );
  return {
    items: page.items
      .filter(({ author }) => !isSuspended(author))
      .map(({ post, author }) => presentPostWithProfile(post, author, liked.has(post.id))),
    next_cursor: page.next_cursor,
  };
});
