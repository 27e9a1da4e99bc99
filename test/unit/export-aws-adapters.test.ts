/**
 * The AWS adapters of data exports on the exact commands they send (aws-sdk-client-mock): the
 * archive as one S3 multipart upload in parts of PART_BYTES, aborted on failure; the presigned
 * GET; the erasure's delete; the job's SQS message.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { PART_BYTES, S3ExportStorage } from '../../shared/ports/aws/s3-export-storage.js';
import { SqsExportQueue } from '../../shared/ports/aws/sqs-export-queue.js';

const s3 = mockClient(S3Client);
const sqs = mockClient(SQSClient);
beforeEach(() => {
  s3.reset();
  sqs.reset();
  s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'upload-1' });
  s3.on(UploadPartCommand).callsFake((input: { PartNumber: number }) => ({ ETag: `"etag-${input.PartNumber}"` }));
  s3.on(CompleteMultipartUploadCommand).resolves({});
  s3.on(AbortMultipartUploadCommand).resolves({});
});

const client = () =>
  new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const KEY = '3f0c8f8e-6a59-4b8e-9d0b-2a4a8f1f5b8e/0123abcd.zip';
const chunk = (bytes: number) => new Uint8Array(bytes).fill(7);

describe('the S3 export storage', () => {
  it('writes an archive as one multipart upload, a part each time PART_BYTES have gathered, the rest as the last', async () => {
    const upload = await new S3ExportStorage('exports-bucket', client()).open(KEY);
    // Two and a half parts' worth, in chunks that do not fall on the parts' boundaries.
    const third = Math.ceil(PART_BYTES / 3);
    for (let i = 0; i < 7; i++) await upload.write(chunk(third));
    expect(s3.commandCalls(UploadPartCommand)).toHaveLength(2);
    const size = await upload.complete();

    expect(size).toBe(7 * third);
    expect(s3.commandCalls(CreateMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([
      {
        Bucket: 'exports-bucket',
        Key: KEY,
        ContentType: 'application/zip',
        ContentDisposition: 'attachment; filename="export.zip"',
      },
    ]);
    const parts = s3.commandCalls(UploadPartCommand).map((c) => c.args[0].input);
    expect(parts.map((p) => [p.Bucket, p.Key, p.UploadId, p.PartNumber])).toEqual([
      ['exports-bucket', KEY, 'upload-1', 1],
      ['exports-bucket', KEY, 'upload-1', 2],
      ['exports-bucket', KEY, 'upload-1', 3],
    ]);
    const sizes = parts.map((p) => (p.Body as Buffer).byteLength);
    expect(sizes.slice(0, 2).every((bytes) => bytes >= PART_BYTES && bytes < PART_BYTES + third)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(size);
    expect(s3.commandCalls(CompleteMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([
      {
        Bucket: 'exports-bucket',
        Key: KEY,
        UploadId: 'upload-1',
        MultipartUpload: {
          Parts: [
            { ETag: '"etag-1"', PartNumber: 1 },
            { ETag: '"etag-2"', PartNumber: 2 },
            { ETag: '"etag-3"', PartNumber: 3 },
          ],
        },
      },
    ]);
    expect(s3.commandCalls(AbortMultipartUploadCommand)).toHaveLength(0);
  });

  it('sends a small archive as its one part', async () => {
    const upload = await new S3ExportStorage('exports-bucket', client()).open(KEY);
    await upload.write(chunk(100));
    expect(await upload.complete()).toBe(100);
    expect(s3.commandCalls(UploadPartCommand).map((c) => c.args[0].input.PartNumber)).toEqual([1]);
  });

  it('aborts the upload of an archive that failed midway', async () => {
    const upload = await new S3ExportStorage('exports-bucket', client()).open(KEY);
    await upload.write(chunk(10));
    await upload.abort();
    expect(s3.commandCalls(AbortMultipartUploadCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: 'exports-bucket', Key: KEY, UploadId: 'upload-1' },
    ]);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });

  it('signs a GET of the archive that expires with the download, at most SigV4’s 7 days', async () => {
    const storage = new S3ExportStorage('exports-bucket', client());
    const inAnHour = new URL(await storage.downloadUrl(KEY, new Date(Date.now() + 3600_000)));
    expect(inAnHour.hostname).toBe('exports-bucket.s3.eu-west-1.amazonaws.com');
    expect(inAnHour.pathname).toBe(`/${KEY}`);
    expect(Number(inAnHour.searchParams.get('X-Amz-Expires'))).toBeGreaterThanOrEqual(3599);
    expect(Number(inAnHour.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(3600);
    expect(inAnHour.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const far = new URL(await storage.downloadUrl(KEY, new Date(Date.now() + 30 * 86_400_000)));
    expect(far.searchParams.get('X-Amz-Expires')).toBe(String(7 * 86_400));
  });
});

describe('the S3 export storage, erasing', () => {
  it('deletes the archive object at its key', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    await new S3ExportStorage('exports-bucket', client()).delete(KEY);
    const calls = s3.commandCalls(DeleteObjectCommand);
    expect(calls.map((c) => c.args[0].input)).toEqual([{ Bucket: 'exports-bucket', Key: KEY }]);
  });
});

describe('the SQS export queue', () => {
  it('sends one message naming the export', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
    await new SqsExportQueue(
      'https://sqs.eu-west-1.amazonaws.com/123/exports',
      new SQSClient({ region: 'eu-west-1' }),
    ).enqueue({
      export_id: 'e-1',
    });
    expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/123/exports', MessageBody: '{"export_id":"e-1"}' },
    ]);
  });
});
