import { httpHandler } from '../../shared/http/handler.js';
import { followPage } from '../../shared/http/follow-page.js';
import { listFollowers } from '../../shared/store/follows.js';
import { routes } from './routes.js';

/** Public: who follows the profile, most recent first. */
export const handler = httpHandler(routes.listFollowers, async ({ params, query }) =>
  followPage(params.profile_id, listFollowers(params.profile_id, query), (f) => f.follower_profile_id),
);
