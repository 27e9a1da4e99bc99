import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentFollowPage } from '../../shared/http/present/follows.js';
import { followersOf } from '../../shared/store/follows.js';
import { routes } from '../../shared/http/contract/routes/follows.js';

/** Public: who follows the profile, most recent first. */
export const handler = httpHandler(routes.listFollowers, async ({ params, query }) => {
  const page = await followersOf(params.profile_id, query);
  if (!page) throw notFound('Profile');
  return presentFollowPage(page);
});
