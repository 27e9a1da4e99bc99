import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { getPost, likedPosts, listPostQuotes } from '../../shared/store/posts.js';
import { routes } from '../../shared/http/contract/routes/posts.js';

/**
 * Public: the published quotes of a published post, newest first, each with its author's card.
 * Acting as a profile: a post across a block is not found, and quotes by profiles it blocks, is
 * blocked by or mutes are left out (a page may hold fewer than `limit`).
 */
export const handler = httpHandler(routes.listPostQuotes, async ({ params, query, auth, viewer }) => {
  const [quoted, page] = await Promise.all([getPost(params.post_id), listPostQuotes(params.post_id, query)]);
  if (quoted?.status !== 'published' || viewer.isBlockedWith(quoted.profile_id)) throw notFound('Post');
  const items = page.items.filter(({ post }) => !viewer.hidesAuthor(post.profile_id));
  const liked = await likedPosts(
    items.map(({ post }) => post.id),
    auth.actingProfile?.id,
  );
  return {
    items: items
      .filter(({ author }) => !isSuspended(author))
      .map(({ post, author }) => presentPostWithProfile(post, author, liked.has(post.id))),
    next_cursor: page.next_cursor,
  };
});
