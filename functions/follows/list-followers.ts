import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentFollowPage } from '../../shared/http/present/follows.js';
import { followersOf } from '../../shared/store/follows.js';
import { routes } from '../../shared/http/contract/routes/follows.js';

/** Public: who follows the profile, most recent first; acting as a profile, none across a block (a page may hold fewer than `limit`). */
export const handler = httpHandler(routes.listFollowers, async ({ params, query, viewer }) => {
  const page = await followersOf(params.profile_id, query);
  if (!page || viewer.isBlockedWith(params.profile_id)) throw notFound('Profile');
  return presentFollowPage({
    items: page.items.filter((item) => !viewer.isBlockedWith(item.profile.id)),
    next_cursor: page.next_cursor,
  });
});
