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
import { tableName } from './client.js';
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
  const names = { '#media': 'media', '#ids': 'media_ids', '#slot': slot, '#variant': variant };
  const values: Record<string, unknown> = { ':at': now.toISOString() };
  let update: string;
  if (media) {
    values[':urls'] = media.urls;
    values[':id'] = media.id;
    update = 'SET #media.#slot.#variant = :urls, #ids.#slot.#variant = :id, updated_at = :at';
  } else {
    update = 'SET updated_at = :at REMOVE #media.#slot.#variant, #ids.#slot.#variant';
  }
  let guard = 'attribute_not_exists(#ids.#slot.#variant)';
  if (previous) {
    values[':previous'] = previous;
    guard = '#ids.#slot.#variant = :previous';
  }
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.profile(profile.id),
        UpdateExpression: update,
        ConditionExpression: `attribute_exists(pk) AND ${guard}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (media) items.push(attachMediaItem(media, now));
  if (released) items.push(releaseMediaItem(released, now));
  await transact(items, (index) => (index === 0 ? changedMeanwhile() : mediaNotFound('media_id')));
  const stored = await getProfile(profile.id, { consistent: true });
  if (!stored) throw notFound('Profile');
  return stored;
}
