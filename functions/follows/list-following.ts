import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentFollowPage } from '../../shared/http/present/follows.js';
import { followingOf } from '../../shared/store/follows.js';
import { routes } from '../../shared/http/contract/routes/follows.js';

/** Public: whom the profile follows, most recent first; acting as a profile, none across a block (a page may hold fewer than `limit`). */
export const handler = httpHandler(routes.listFollowing, async ({ params, query, viewer }) => {
  const page = await followingOf(params.profile_id, query);
  if (!page || viewer.isBlockedWith(params.profile_id)) throw notFound('Profile');
  return presentFollowPage({
    items: page.items.filter((item) => !viewer.isBlockedWith(item.profile.id)),
    next_cursor: page.next_cursor,
  });
});
