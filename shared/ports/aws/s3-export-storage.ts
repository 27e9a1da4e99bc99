/**
 * The AWS adapter of ExportStorage: an archive is one S3 multipart upload to the private export
 * bucket, its bytes gathered into parts of PART_BYTES (S3's minimum is 5 MiB for every part but
 * the last), so the job holds one part at a time; a failed job aborts the upload. A download is a
 * presigned GET, made when the export is read: a URL signed with a Lambda's temporary credentials
 * lasts only as long as they do, so each read signs a fresh one up to the export's expiry.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../../config.js';
import type { ExportStorage, ExportUpload } from '../export-storage.js';

/** 8 MiB: above S3's 5 MiB minimum, and small beside the job's memory. */
export const PART_BYTES = 8 * 1024 * 1024;
/** SigV4 presigned URLs last at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 86_400;

class S3ExportUpload implements ExportUpload {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private size = 0;
  private readonly parts: CompletedPart[] = [];

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
    private readonly uploadId: string,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.chunks.push(chunk);
    this.buffered += chunk.byteLength;
    this.size += chunk.byteLength;
    if (this.buffered >= PART_BYTES) await this.sendPart();
  }

  private async sendPart(): Promise<void> {
    const body = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [];
    this.buffered = 0;
    const PartNumber = this.parts.length + 1;
    const { ETag } = await this.client.send(
      new UploadPartCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId, PartNumber, Body: body }),
    );
    this.parts.push({ ETag, PartNumber });
  }

  async complete(): Promise<number> {
    // The last part may be small (or the only one, an archive under a part's size).
    if (this.buffered > 0 || this.parts.length === 0) await this.sendPart();
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
    return this.size;
  }

  async abort(): Promise<void> {
    this.chunks = [];
    await this.client.send(
      new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId }),
    );
  }
}

export class S3ExportStorage implements ExportStorage {
  constructor(
    private readonly bucket: string,
    private readonly client: S3Client = new S3Client({}),
  ) {}

  async open(key: string): Promise<ExportUpload> {
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: 'application/zip',
        ContentDisposition: 'attachment; filename="export.zip"',
      }),
    );
    if (!UploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
    return new S3ExportUpload(this.client, this.bucket, key, UploadId);
  }

  downloadUrl(key: string, expiresAt: Date): Promise<string> {
    const seconds = Math.round((expiresAt.getTime() - Date.now()) / 1000);
    const expiresIn = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, seconds));
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn });
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

/** The deployed bucket (EXPORT_BUCKET); without it, every use fails with a clear message. */
export function s3ExportStorageFromConfig(): ExportStorage {
  const bucket = config.exportBucket;
  if (bucket) return new S3ExportStorage(bucket);
  const missing = () => Promise.reject(new Error('EXPORT_BUCKET is not configured'));
  return { open: missing, downloadUrl: missing, delete: missing };
}
