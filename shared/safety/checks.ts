/**
 * The checks the safety rules put on a request acting as a profile: the other profile of a block
 * or mute, the refusal of an interaction across a block or of a message the recipient's setting
 * does not take, and which conversations a profile's lists show. The viewer filter comes with the
 * request (domain/safety.ts): nothing here reads the safety sets again.
 */
import type { ProfileRecord } from '../domain/entities.js';
import { allowsMessageFrom, type AllowMessagesFrom } from '../domain/conversations.js';
import { isSuspended } from '../domain/reports.js';
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

/**
 * Whether a conversation with `other` shows in the acting profile's lists and counts: not across
 * a block either way, not with a suspended profile (as its other content reads 404).
 */
export const conversationShown = (viewer: ViewerFilter, other: ProfileRecord): boolean =>
  !isSuspended(other) && !viewer.isBlockedWith(other.id);

/** Refuses a message the recipient's setting does not take (403 messages_not_allowed). */
export function refuseUnlessMessagesAllowed(setting: AllowMessagesFrom, recipientFollowsSender: boolean): void {
  if (allowsMessageFrom(setting, recipientFollowsSender)) return;
  throw new AppError('messages_not_allowed', {
    hint:
      setting === 'nobody'
        ? 'The recipient takes no messages at all.'
        : 'The recipient takes messages only from profiles it follows; other ways to reach it (a mention, a follow) are unchanged.',
  });
}
