import * as z from 'zod';
import { Timestamp, Uuid } from './common.js';
import { Profile } from './profiles.js';

export const BlockBody = z.strictObject({ blocked_profile_id: Uuid });
export const BlockResult = z.object({ blocked: z.literal(true) });
export const UnblockResult = z.object({
  unblocked: z.boolean().meta({ description: 'false when there was no block to remove.' }),
});

export const MuteBody = z.strictObject({ muted_profile_id: Uuid });
export const MuteResult = z.object({ muted: z.literal(true) });
export const UnmuteResult = z.object({
  unmuted: z.boolean().meta({ description: 'false when there was no mute to remove.' }),
});

export const SafetyListItem = z
  .object({ profile: Profile, created_at: Timestamp.meta({ description: 'When the block or mute was made.' }) })
  .meta({ id: 'SafetyListItem' });
