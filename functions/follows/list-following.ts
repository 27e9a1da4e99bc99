import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentFollowPage } from '../../shared/http/present/follows.js';
import { followingOf } from '../../shared/store/follows.js';
import { routes } from '../../shared/http/contract/routes/follows.js';

/** Public: whom the profile follows, most recent first. */
export const handler = httpHandler(routes.listFollowing, async ({ params, query }) => {
  const page = await followingOf(params.profile_id, query);
  if (!page) throw notFound('Profile');
  return presentFollowPage(page);
});
