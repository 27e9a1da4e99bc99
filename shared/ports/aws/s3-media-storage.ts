/**
 * The AWS adapter of MediaStorage: uploads in the uploads bucket through an S3 presigned POST (S3
 * enforces its policy: exact key, exact Content-Type, content-length-range, expiry), processed
 * files in the private media bucket behind CloudFront. Each bucket name is checked when it is
 * first needed, so a function that only presigns needs only the uploads bucket's name.
 */
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { config } from '../../config.js';
import {
  MEDIA_FILE_CACHE_CONTROL,
  type MediaStorage,
  type PresignedUpload,
  type UploadPolicy,
} from '../media-storage.js';

export interface S3MediaStorageOptions {
  uploadBucket: string | undefined;
  mediaBucket: string | undefined;
  client?: S3Client;
}

const required = (value: string | undefined, variable: string): string => {
  if (!value) throw new Error(`${variable} is not configured`);
  return value;
};

/** The `expiration` of a presigned POST's policy (base64 JSON), which S3 enforces. */
const policyExpiry = (fields: Record<string, string>): Date =>
  new Date(
    (JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as { expiration: string }).expiration,
  );

export class S3MediaStorage implements MediaStorage {
  private readonly client: S3Client;

  constructor(private readonly options: S3MediaStorageOptions) {
    this.client = options.client ?? new S3Client({});
  }

  private get uploadBucket() {
    return required(this.options.uploadBucket, 'MEDIA_UPLOAD_BUCKET');
  }

  private get mediaBucket() {
    return required(this.options.mediaBucket, 'MEDIA_BUCKET');
  }

  async presignUpload({ key, contentType, maxBytes, expiresAt }: UploadPolicy): Promise<PresignedUpload> {
    // createPresignedPost counts the expiry from its own clock, in whole seconds.
    const expiresInSeconds = Math.max(1, Math.round((expiresAt.getTime() - Date.now()) / 1000));
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.uploadBucket,
      Key: key,
      // The key and every field (Content-Type among them) become exact-match conditions.
      Fields: { 'Content-Type': contentType },
      Conditions: [['content-length-range', 1, maxBytes]],
      Expires: expiresInSeconds,
    });
    return { url, fields, expiresAt: policyExpiry(fields) };
  }

  async readUpload(key: string): Promise<Buffer | undefined> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.uploadBucket, Key: key }));
      return Body ? Buffer.from(await Body.transformToByteArray()) : undefined;
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }

  async deleteUpload(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.uploadBucket, Key: key }));
  }

  async putFile(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.mediaBucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: MEDIA_FILE_CACHE_CONTROL,
      }),
    );
  }

  async deleteFiles(prefix: string): Promise<void> {
    let token: string | undefined;
    do {
      const listed = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.mediaBucket, Prefix: prefix, ContinuationToken: token }),
      );
      const objects = (listed.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (objects.length > 0) {
        const { Errors } = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.mediaBucket, Delete: { Objects: objects, Quiet: true } }),
        );
        if (Errors?.length)
          throw new Error(`S3 refused to delete ${Errors.length} object(s) under ${prefix}: ${Errors[0]?.Code}`);
      }
      token = listed.IsTruncated ? listed.NextContinuationToken : undefined;
    } while (token);
  }
}

/** The deployed buckets (MEDIA_UPLOAD_BUCKET, MEDIA_BUCKET). */
export const s3MediaStorageFromConfig = (): MediaStorage =>
  new S3MediaStorage({ uploadBucket: config.mediaUploadBucket, mediaBucket: config.mediaBucket });
