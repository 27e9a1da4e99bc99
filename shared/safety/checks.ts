/**
 * The checks the safety rules put on a request acting as a profile: the other profile of a block
 * or mute, and the refusal of an interaction across a block. The viewer filter comes with the
 * request (domain/safety.ts): nothing here reads the safety sets again.
 */
import type { ProfileRecord } from '../domain/entities.js';
import type { ViewerFilter } from '../domain/safety.js';
import { AppError, notFound } from '../errors.js';
import { getProfile } from '../store/profiles.js';

/** The profile a block or mute names: not the acting profile itself (400), and one that exists (404). */
export async function otherProfile(actingId: string, targetId: string, field: string): Promise<ProfileRecord> {
  if (targetId === actingId) {
    throw new AppError('invalid_request', {
      message: 'A profile cannot block or mute itself.',
      hint: `body.${field} must differ from X-Profile-Id.`,
    });
  }
  const profile = await getProfile(targetId);
  if (!profile) throw notFound('Profile');
  return profile;
}

/** Refuses an interaction of the acting profile with `otherId` (an author, a recipient) while a block stands either way. */
export function refuseIfBlocked(viewer: ViewerFilter, otherId: string): void {
  if (!viewer.isBlockedWith(otherId)) return;
  throw new AppError('blocked', {
    hint: 'Neither profile of a block can follow, reply to, comment on, quote, like or message the other; the blocker may lift it with DELETE /v1/profile-blocks.',
  });
}
