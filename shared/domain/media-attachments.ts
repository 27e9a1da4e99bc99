/**
 * Attaching media to a profile slot or a post (API.md "Media"): which media may be attached, what
 * an attached image looks like on a post, and which media a change leaves unshown (released).
 */
import { AppError } from '../errors.js';
import type { MediaVariant, ProfileRecord } from './entities.js';
import type { MediaPurpose, MediaRecord, ProfileMediaSlot, ProfileMediaSlotVariant } from './media.js';
import type { PostImage } from './posts.js';

/** A media whose processing ended well: its files and the large file's size are known. */
export type ReadyMedia = MediaRecord & { status: 'ready'; urls: MediaVariant; width: number; height: number };

const isReady = (media: MediaRecord): media is ReadyMedia =>
  media.status === 'ready' && media.urls !== null && media.width !== null && media.height !== null;

/** Another profile's media, an unknown one and an expired one all read the same: not found. */
export const mediaNotFound = (field: string) =>
  new AppError('not_found', {
    message: 'Media not found.',
    hint: `${field} must name a media uploaded as this profile (POST /v1/media) in the last 24 hours or attached since.`,
  });

function wrongPurpose(field: string, purpose: MediaPurpose, actual: MediaPurpose): AppError {
  return new AppError('invalid_request', {
    message: `Invalid ${field}: the media was uploaded as ${actual}, this takes ${purpose}.`,
    hint: `Upload the image again with purpose ${purpose} (POST /v1/media) and send that media's id.`,
  });
}

function notReady(media: MediaRecord): AppError {
  return media.status === 'failed'
    ? new AppError('media_not_ready', {
        message: 'The media failed processing and will never be ready.',
        hint: `Its error_code (${media.error_code ?? 'unknown'}) says why: upload a supported image as a new media.`,
      })
    : new AppError('media_not_ready', {
        hint: `Poll GET /v1/media/${media.id} until its status is ready (it answers Retry-After while processing), then retry.`,
      });
}

/**
 * The media `field` names, when `profileId` may attach it for `purpose`: that profile's own (else
 * 404, as for media that never existed or expired), of that purpose (else 400), and ready (else
 * 409 media_not_ready). Checked in that order: the lasting mistakes before the passing one.
 */
export function attachableMedia(
  media: MediaRecord | undefined,
  profileId: string,
  purpose: MediaPurpose,
  field: string,
): ReadyMedia {
  if (!media || media.profile_id !== profileId) throw mediaNotFound(field);
  if (media.purpose !== purpose) throw wrongPurpose(field, purpose, media.purpose);
  if (!isReady(media)) throw notReady(media);
  return media;
}

/** A post's image: the media's large file and size, and the text the author gave it. */
export const postImageOf = (media: ReadyMedia, altText: string | null | undefined): PostImage => ({
  id: media.id,
  url: media.urls.large_url,
  width: media.width,
  height: media.height,
  alt_text: altText ?? null,
});

/**
 * The media a slot variant no longer shows once it shows `nextId` (undefined: nothing), unless
 * the slot's other variant still shows it (one media may be both light and dark).
 */
export function releasedBySlotChange(
  profile: Pick<ProfileRecord, 'media_ids'>,
  slot: ProfileMediaSlot,
  variant: ProfileMediaSlotVariant,
  nextId: string | undefined,
): string | undefined {
  const ids = profile.media_ids[slot];
  const previous = ids[variant];
  const other = ids[variant === 'light' ? 'dark' : 'light'];
  return previous && previous !== nextId && previous !== other ? previous : undefined;
}
