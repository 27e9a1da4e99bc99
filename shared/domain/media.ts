/**
 * Media (avatars, banners, post images): the vocabulary every part of the media pipeline shares
 * (API.md "Media"). No AWS, no HTTP: the routes, the processor, the storage adapters and the
 * infrastructure all read their limits and names from here.
 */
import type { MediaVariant } from './entities.js';
import type { GrantPermissionName } from './grants.js';
import { newId } from './ids.js';

export const MEDIA_PURPOSES = ['avatar', 'banner', 'post_image'] as const;
export type MediaPurpose = (typeof MEDIA_PURPOSES)[number];

/** What a client may declare; anything else is `415 unsupported_media_type` (HEIC among them). */
export const MEDIA_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;
export type MediaContentType = (typeof MEDIA_CONTENT_TYPES)[number];

export const MEDIA_STATUSES = ['awaiting_upload', 'processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** Why processing ended `failed`: the `error_code` of the media. */
export const MEDIA_FAILURE_CODES = ['unsupported_media_type', 'image_too_large'] as const;
export type MediaFailureCode = (typeof MEDIA_FAILURE_CODES)[number];

const MIB = 1024 * 1024;

/** The largest upload each purpose accepts, in bytes (declared `content_length` above it: 413). */
export const MEDIA_MAX_BYTES: Record<MediaPurpose, number> = {
  avatar: 5 * MIB,
  banner: 5 * MIB,
  post_image: 10 * MIB,
};

/**
 * Decoded pixels the processor accepts: a small file can decode to far more (a 776 KB PNG to
 * 256 MP, measured), and decoding it would take the processor's memory.
 */
export const MEDIA_MAX_INPUT_PIXELS = 40_000_000;

/** How long a presigned upload form stays valid. */
export const MEDIA_UPLOAD_TTL_SECONDS = 15 * 60;
/** Media never attached to a profile or a post is deleted, with its files, this long after its creation. */
export const MEDIA_UNATTACHED_TTL_SECONDS = 24 * 3600;
/** Media replaced on a profile is deleted this long after the replacement, so cached pages keep working. */
export const MEDIA_REPLACED_TTL_SECONDS = 30 * 86_400;
/** Uploads left in the uploads store (never processed, or processed but not deleted) go after this long. */
export const MEDIA_UPLOAD_RETENTION_SECONDS = 86_400;
/**
 * A `processing` claim older than this was left by an attempt that died (the processor's timeout
 * is 30 s): a retried event may take it again. Shorter than the first retry of an asynchronous
 * Lambda invocation (about a minute after the failed attempt ends).
 */
export const MEDIA_PROCESSING_LEASE_SECONDS = 45;

/** What an accepted access grant must include to upload (and follow) media of each purpose. */
export const MEDIA_GRANT_PERMISSION: Record<MediaPurpose, GrantPermissionName> = {
  avatar: 'profile_editing',
  banner: 'profile_editing',
  post_image: 'posting',
};

/** The four files of every ready media, in the order of the spec's variant shape. */
export const MEDIA_VARIANT_NAMES = ['source', 'large', 'medium', 'small'] as const;
export type MediaVariantName = (typeof MEDIA_VARIANT_NAMES)[number];

/**
 * `cover`: cropped to exactly width × height. `inside`: the longest side at most `longest`,
 * aspect ratio kept, never enlarged.
 */
export type VariantSize = { fit: 'cover'; width: number; height: number } | { fit: 'inside'; longest: number };

/** API.md's variant table: the size of each file per purpose. */
export const MEDIA_VARIANTS: Record<MediaPurpose, Record<MediaVariantName, VariantSize>> = {
  avatar: {
    source: { fit: 'inside', longest: 2048 },
    large: { fit: 'cover', width: 800, height: 800 },
    medium: { fit: 'cover', width: 400, height: 400 },
    small: { fit: 'cover', width: 128, height: 128 },
  },
  banner: {
    source: { fit: 'inside', longest: 3000 },
    large: { fit: 'cover', width: 1500, height: 500 },
    medium: { fit: 'cover', width: 1000, height: 333 },
    small: { fit: 'cover', width: 600, height: 200 },
  },
  post_image: {
    source: { fit: 'inside', longest: 4096 },
    large: { fit: 'inside', longest: 2048 },
    medium: { fit: 'inside', longest: 1200 },
    small: { fit: 'inside', longest: 680 },
  },
};

/** The profile slots a media can fill, and the purpose a media must have to fill each. */
export const PROFILE_MEDIA_SLOTS = ['avatar', 'banner'] as const;
export type ProfileMediaSlot = (typeof PROFILE_MEDIA_SLOTS)[number];
export const PROFILE_MEDIA_SLOT_VARIANTS = ['light', 'dark'] as const;
export type ProfileMediaSlotVariant = (typeof PROFILE_MEDIA_SLOT_VARIANTS)[number];

/**
 * Where the files live, in AWS and locally alike: the upload under the uploads store, the
 * variants under the media store (served publicly below the media base URL).
 */
export const mediaObjectKeys = {
  upload: (mediaId: string) => `incoming/${mediaId}`,
  /** Everything of one media in the media store (deleted together). */
  mediaPrefix: (mediaId: string) => `media/${mediaId}/`,
  variant: (mediaId: string, name: MediaVariantName, extension: string) => `media/${mediaId}/${name}.${extension}`,
};
/** The prefix every upload key starts with: the presign role may write there and nowhere else. */
export const MEDIA_UPLOAD_PREFIX = 'incoming/';
/** The prefix of every variant's key in the media store. */
export const MEDIA_FILES_PREFIX = 'media/';

export interface MediaRecord {
  id: string;
  /** The profile that uploaded it: the only one that may attach it. */
  profile_id: string;
  purpose: MediaPurpose;
  status: MediaStatus;
  /** As declared at creation; the bytes must agree. */
  content_type: MediaContentType;
  content_length: number;
  /** The large variant's size; null until ready. */
  width: number | null;
  height: number | null;
  /** Null until ready. */
  urls: MediaVariant | null;
  error_code: MediaFailureCode | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
}

/** A media as `POST /v1/media` creates it: waiting for its upload. */
export function newMedia(
  now: Date,
  profileId: string,
  fields: Pick<MediaRecord, 'purpose' | 'content_type' | 'content_length'>,
): MediaRecord {
  const at = now.toISOString();
  return {
    id: newId(),
    profile_id: profileId,
    purpose: fields.purpose,
    status: 'awaiting_upload',
    content_type: fields.content_type,
    content_length: fields.content_length,
    width: null,
    height: null,
    urls: null,
    error_code: null,
    error_message: null,
    created_at: at,
    updated_at: at,
  };
}

/** Whether the media's processing has not ended yet (a client should poll again). */
export const isMediaPending = (media: Pick<MediaRecord, 'status'>): boolean =>
  media.status === 'awaiting_upload' || media.status === 'processing';
