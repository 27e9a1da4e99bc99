import { isSuspended } from '../../shared/domain/reports.js';
import { newFollow } from '../../shared/domain/social.js';
import { ApiError, notFound } from '../../shared/http/contract/errors.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { socialEvents } from '../../shared/http/present/social-events.js';
import { follow } from '../../shared/store/follows.js';
import { getProfile } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/follows.js';
import { refuseIfBlocked } from '../../shared/safety/checks.js';

/** Idempotent: following again answers the same and sends no second profile.followed event. Refused across a block. */
export const handler = httpHandler(routes.followProfile, async ({ body, auth, now, viewer }) => {
  const follower = auth.actingProfile;
  if (body.followed_profile_id === follower.id) {
    throw new ApiError('invalid_request', {
      message: 'A profile cannot follow itself.',
      hint: 'body.followed_profile_id must differ from X-Profile-Id.',
    });
  }
  const followed = await getProfile(body.followed_profile_id);
  if (!followed || isSuspended(followed)) throw notFound('Profile');
  refuseIfBlocked(viewer, followed.id);
  const record = newFollow(now, follower, followed.id);
  const created = await follow(record, socialEvents.profileFollowed(record, follower, followed));
  return created
    ? { followed: true as const }
    : withHint({ followed: true as const }, 'The profile was already followed; nothing changed.');
});
