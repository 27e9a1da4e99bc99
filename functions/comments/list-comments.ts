import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentComment } from '../../shared/http/present/comments.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { likedComments, listComments } from '../../shared/store/comments.js';
import { getPost } from '../../shared/store/posts.js';
import { getProfiles } from '../../shared/store/profiles.js';
import { routes } from './routes.js';

/** Public: top-level comments and nested replies of a published post, oldest first. */
export const handler = httpHandler(routes.listComments, async ({ params, query, auth }) => {
  const [post, page] = await Promise.all([getPost(params.post_id), listComments(params.post_id, query)]);
  if (post?.status !== 'published') throw notFound('Post');
  const [profiles, liked] = await Promise.all([
    getProfiles(page.items.map((c) => c.profile_id)),
    likedComments(page.items.map((c) => c.id), auth.actingProfile?.id),
  ]);
  return {
    items: page.items.flatMap((c) => {
      const profile = profiles.get(c.profile_id);
      return profile ? [{ comment: presentComment(c, liked.has(c.id)), profile: presentProfile(profile) }] : [];
    }),
    next_cursor: page.next_cursor,
  };
});
