import { httpHandler } from '../../shared/http/handler.js';
import { followPage } from '../../shared/http/follow-page.js';
import { listFollowing } from '../../shared/store/follows.js';
import { routes } from './routes.js';

/** Public: whom the profile follows, most recent first. */
export const handler = httpHandler(routes.listFollowing, async ({ params, query }) =>
  followPage(params.profile_id, listFollowing(params.profile_id, query), (f) => f.followed_profile_id),
);
