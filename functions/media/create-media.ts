import { requireActingPermission } from '../../shared/auth/acting-profile.js';
import {
  MEDIA_CONTENT_TYPES,
  MEDIA_GRANT_PERMISSION,
  MEDIA_MAX_BYTES,
  MEDIA_UPLOAD_TTL_SECONDS,
  mediaObjectKeys,
  newMedia,
  type MediaContentType,
} from '../../shared/domain/media.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { routes } from '../../shared/http/contract/routes/media.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentMedia, presentUpload } from '../../shared/http/present/media.js';
import { s3MediaStorageFromConfig } from '../../shared/ports/aws/s3-media-storage.js';
import type { MediaStorage } from '../../shared/ports/media-storage.js';
import { createMedia } from '../../shared/store/media.js';

const acceptedType = (declared: string): MediaContentType | undefined =>
  MEDIA_CONTENT_TYPES.find((type) => type === declared.trim().toLowerCase());

const unsupportedType = () =>
  new ApiError('unsupported_media_type', {
    message: 'This content_type is not accepted for media.',
    hint: `Send one of ${MEDIA_CONTENT_TYPES.join(', ')} (convert HEIC and other formats to JPEG first).`,
  });

const tooLarge = (limit: number) =>
  new ApiError('payload_too_large', {
    message: 'content_length is over the limit of this purpose.',
    hint: `Upload at most ${limit} bytes for this purpose (resize or compress the file first).`,
  });

export const handler = httpHandler(
  routes.createMedia,
  async ({ body, auth, now, ports }) => {
    const profile = auth.actingProfile;
    await requireActingPermission(auth.principal, profile, MEDIA_GRANT_PERMISSION[body.purpose]);
    const contentType = acceptedType(body.content_type);
    if (!contentType) throw unsupportedType();
    const limit = MEDIA_MAX_BYTES[body.purpose];
    if (body.content_length > limit) throw tooLarge(limit);

    const media = newMedia(now, profile.id, { ...body, content_type: contentType });
    const upload = await ports.storage.presignUpload({
      key: mediaObjectKeys.upload(media.id),
      contentType,
      maxBytes: body.content_length,
      expiresAt: new Date(now.getTime() + MEDIA_UPLOAD_TTL_SECONDS * 1000),
    });
    await createMedia(media);
    return { media: presentMedia(media), upload: presentUpload(upload) };
  },
  { ports: (): { storage: MediaStorage } => ({ storage: s3MediaStorageFromConfig() }) },
);
