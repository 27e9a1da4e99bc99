import { httpHandler } from '../../shared/http/handler.js';
import { unfollow } from '../../shared/store/follows.js';
import { routes } from '../../shared/http/contract/routes/follows.js';

/** `{ unfollowed: false }` when there was no follow. */
export const handler = httpHandler(routes.unfollowProfile, async ({ body, auth }) => ({
  unfollowed: await unfollow(auth.actingProfile.id, body.followed_profile_id),
}));
