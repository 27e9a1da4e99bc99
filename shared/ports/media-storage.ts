/**
 * MediaStorage port: where uploads land and processed files are served from. Two stores, as two
 * buckets in AWS (shared/ports/aws/s3-media-storage.ts) and two directories (or maps) locally
 * (infra/local/local-media-storage.ts): uploads, written only through a presigned form whose
 * policy the storage enforces, and media files, public below the media base URL. Keys are
 * `mediaObjectKeys`' (shared/domain/media.ts).
 */

/** What a presigned upload allows: one object at `key`, of exactly `contentType`, 1..`maxBytes` bytes, until `expiresAt`. */
export interface UploadPolicy {
  key: string;
  contentType: string;
  maxBytes: number;
  expiresAt: Date;
}

/**
 * An HTML-form style upload: a `multipart/form-data` POST to `url` of every entry of `fields`,
 * then the file as `file`. `expiresAt` is the expiry the signed policy holds.
 */
export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
  expiresAt: Date;
}

/** Every processed file is immutable (a new upload is a new media with new keys): cached for a year. */
export const MEDIA_FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface MediaStorage {
  /** Signs an upload form whose policy the storage enforces (an upload that breaks it is refused and not stored). */
  presignUpload(policy: UploadPolicy): Promise<PresignedUpload>;
  /** The uploaded bytes, or undefined when there is no upload at `key`. */
  readUpload(key: string): Promise<Buffer | undefined>;
  /** Deletes the upload at `key` (nothing happens when there is none). */
  deleteUpload(key: string): Promise<void>;
  /** Writes a processed file, public and cached as MEDIA_FILE_CACHE_CONTROL says. */
  putFile(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Deletes every processed file whose key starts with `prefix` (a media's `mediaObjectKeys.mediaPrefix`). */
  deleteFiles(prefix: string): Promise<void>;
}
