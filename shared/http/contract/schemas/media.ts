import * as z from 'zod';
import {
  MEDIA_CONTENT_TYPES,
  MEDIA_FAILURE_CODES,
  MEDIA_MAX_BYTES,
  MEDIA_PURPOSES,
  MEDIA_STATUSES,
} from '../../../domain/media.js';
import { Timestamp, Uuid } from './common.js';
import { MediaVariant } from './profiles.js';

const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;

export const MediaPurpose = z.enum(MEDIA_PURPOSES).meta({
  description: 'What the media is for: a profile `avatar` or `banner` (light or dark variant), or a `post_image`.',
});

export const CreateMediaBody = z.strictObject({
  purpose: MediaPurpose,
  // Not an enum: a type outside the list is 415 unsupported_media_type, not a validation error.
  content_type: z
    .string()
    .min(1)
    .max(255)
    .meta({
      description: `The file's type: one of ${MEDIA_CONTENT_TYPES.map((t) => `\`${t}\``).join(', ')} (any other, HEIC among them, is 415 unsupported_media_type). The bytes must agree: processing reads the type from them.`,
    }),
  content_length: z
    .number()
    .int()
    .min(1)
    .meta({
      description: `The file's size in bytes: at most ${mib(MEDIA_MAX_BYTES.avatar)} for an avatar or banner, ${mib(MEDIA_MAX_BYTES.post_image)} for a post image (413 payload_too_large above). The upload may be smaller, never larger.`,
    }),
});

export const MediaIdParams = z.strictObject({ media_id: Uuid });

export const Media = z
  .object({
    id: Uuid,
    profile_id: Uuid.meta({ description: 'The profile that uploaded it: the only one that may use it.' }),
    purpose: MediaPurpose,
    status: z.enum(MEDIA_STATUSES).meta({
      description:
        '`awaiting_upload` until the upload arrives, `processing` while the variants are made, then `ready` or `failed`.',
    }),
    content_type: z.enum(MEDIA_CONTENT_TYPES).meta({ description: 'As declared at creation.' }),
    width: z.number().int().min(1).nullable().meta({ description: "The large_url image's width; null until ready." }),
    height: z.number().int().min(1).nullable().meta({ description: "The large_url image's height; null until ready." }),
    urls: MediaVariant.nullable().meta({
      description: 'The four files (stable public URLs, cached for a year); null until ready.',
    }),
    error_code: z.enum(MEDIA_FAILURE_CODES).nullable().meta({
      description:
        'Why processing failed: `unsupported_media_type` (not a decodable image of the declared type) or `image_too_large` (over 40 megapixels decoded, or more bytes than declared); null otherwise.',
    }),
    error_message: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Media' });

export const MediaUpload = z
  .object({
    url: z.string().meta({ description: 'Where to POST the form.' }),
    method: z.literal('POST'),
    fields: z.record(z.string(), z.string()).meta({
      description:
        'Every one of these form fields, as given and in this order, then the file as the last field, `file`.',
    }),
    expires_at: Timestamp.meta({ description: 'The form is refused after this (15 minutes after creation).' }),
  })
  .meta({ id: 'MediaUpload' });

export const CreatedMedia = z.object({ media: Media, upload: MediaUpload }).meta({ id: 'CreatedMedia' });
