import * as z from 'zod';
import { Timestamp, Uuid } from './common.js';
import { Profile } from './profiles.js';

export const FollowBody = z.strictObject({ followed_profile_id: Uuid });

export const FollowResult = z.object({ followed: z.literal(true) });
export const UnfollowResult = z.object({
  unfollowed: z.boolean().meta({ description: 'false when there was no follow to remove.' }),
});

export const FollowListItem = z
  .object({ profile: Profile, followed_at: Timestamp.meta({ description: 'When the follow was created.' }) })
  .meta({ id: 'FollowListItem' });
