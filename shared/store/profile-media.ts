/**
 * A profile's avatar and banner: one slot variant changed in one transaction with the media it
 * attaches and the media it releases. The profile item keeps which media each variant shows
 * (`media_ids`), and the change is guarded by it, so two changes of one variant at once cannot
 * release the wrong media.
 */
import type { ProfileRecord } from '../domain/entities.js';
import { mediaNotFound, releasedBySlotChange, type ReadyMedia } from '../domain/media-attachments.js';
import type { ProfileMediaSlot, ProfileMediaSlotVariant } from '../domain/media.js';
import { AppError, notFound } from '../errors.js';
import { updateRequest, when } from './expressions.js';
import { keys } from './keys.js';
import { attachMediaItem, releaseMediaItem } from './media.js';
import { getProfile } from './profiles.js';
import { transact, type TransactItem } from './transact.js';

const changedMeanwhile = () =>
  new AppError('invalid_state', {
    message: "The profile's media changed while this request ran.",
    hint: 'Read the profile again and retry.',
  });

/**
 * Shows `media` in the slot variant (undefined: shows nothing there), attaching it and releasing
 * the media the variant showed before. Returns the profile as stored.
 */
export async function setProfileMedia(
  profile: ProfileRecord,
  slot: ProfileMediaSlot,
  variant: ProfileMediaSlotVariant,
  media: ReadyMedia | undefined,
  now: Date,
): Promise<ProfileRecord> {
  const previous = profile.media_ids[slot][variant];
  const released = releasedBySlotChange(profile, slot, variant, media?.id);
  const urlsAt = `media.${slot}.${variant}`;
  const idAt = `media_ids.${slot}.${variant}`;
  const items: TransactItem[] = [
    {
      Update: updateRequest({
        key: keys.profile(profile.id),
        set: { updated_at: now.toISOString(), ...(media && { [urlsAt]: media.urls, [idAt]: media.id }) },
        remove: media ? [] : [urlsAt, idAt],
        // The variant still shows what the caller read.
        when: [when.exists(), previous ? when.is(idAt, previous) : when.lacks(idAt)],
      }),
    },
  ];
  if (media) items.push(attachMediaItem(media, now));
  if (released) items.push(releaseMediaItem(released, now));
  await transact(items, (index) => (index === 0 ? changedMeanwhile() : mediaNotFound('media_id')));
  const stored = await getProfile(profile.id, { consistent: true });
  if (!stored) throw notFound('Profile');
  return stored;
}
