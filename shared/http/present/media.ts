import type { MediaRecord } from '../../domain/media.js';
import type { PresignedUpload } from '../../ports/media-storage.js';
import { Media } from '../contract/schemas/media.js';
import { declared } from './declared.js';

export const presentMedia = (media: MediaRecord) => declared(Media, media);

export const presentUpload = (upload: PresignedUpload) => ({
  url: upload.url,
  method: 'POST' as const,
  fields: upload.fields,
  expires_at: upload.expiresAt.toISOString(),
});
