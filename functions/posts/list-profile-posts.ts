import { isSuspended } from '../../shared/domain/reports.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentPostWithProfile } from '../../shared/http/present/posts.js';
import { likedPosts, listProfilePosts } from '../../shared/store/posts.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/posts.js';

/** Public: the profile's published posts and replies, newest first; acting across a block, the profile is not found. */
export const handler = httpHandler(routes.listProfilePosts, async ({ params, query, auth, viewer }) => {
  const [profile, page] = await Promise.all([
    getProfile(params.profile_id),
    listProfilePosts(params.profile_id, query),
  ]);
  if (!profile || isSuspended(profile) || viewer.isBlockedWith(profile.id)) throw notFound('Profile');
  const liked = await likedPosts(
    page.items.map((p) => p.id),
    auth.actingProfile?.id,
  );
  return {
    items: page.items.map((p) => presentPostWithProfile(p, profile, liked.has(p.id))),
    next_cursor: page.next_cursor,
  };
});
