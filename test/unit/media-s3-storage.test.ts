/**
 * The S3 adapter of MediaStorage on the exact commands it sends (aws-sdk-client-mock), and the
 * presigned POST's policy decoded: what S3 will enforce on the upload.
 */
import { createHmac } from 'node:crypto';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { mediaObjectKeys } from '../../shared/domain/media.js';
import { S3MediaStorage } from '../../shared/ports/aws/s3-media-storage.js';
import { MEDIA_FILE_CACHE_CONTROL } from '../../shared/ports/media-storage.js';

const s3 = mockClient(S3Client);
beforeEach(() => s3.reset());

const REGION = 'eu-west-1';
const CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG',
  sessionToken: 'session-token',
};
const MEDIA_ID = '3f0c8f8e-6a59-4b8e-9d0b-2a4a8f1f5b8e';

const storage = (buckets: { uploadBucket?: string; mediaBucket?: string } = {}) =>
  new S3MediaStorage({
    uploadBucket: 'uploads-bucket',
    mediaBucket: 'media-bucket',
    ...buckets,
    client: new S3Client({ region: REGION, credentials: CREDENTIALS }),
  });

interface Policy {
  expiration: string;
  conditions: (Record<string, string> | [string, string | number, string | number])[];
}
const decodePolicy = (fields: Record<string, string>) =>
  JSON.parse(Buffer.from(fields.Policy!, 'base64').toString('utf8')) as Policy;

/** SigV4's signing key for S3 on the form's date, then the signature of the base64 policy. */
function expectedSignature(fields: Record<string, string>): string {
  const date = fields['X-Amz-Date']!.slice(0, 8);
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const key = hmac(hmac(hmac(hmac(`AWS4${CREDENTIALS.secretAccessKey}`, date), REGION), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(fields.Policy!).digest('hex');
}

describe('the presigned upload (S3 presigned POST)', () => {
  const presign = async () => {
    const expiresAt = new Date(Date.now() + 15 * 60_000);
    const upload = await storage().presignUpload({
      key: mediaObjectKeys.upload(MEDIA_ID),
      contentType: 'image/png',
      maxBytes: 5 * 1024 * 1024,
      expiresAt,
    });
    return { upload, expiresAt };
  };

  it("posts to the uploads bucket's endpoint with the key, the content type and the SigV4 fields", async () => {
    const { upload } = await presign();
    expect(upload.url).toBe(`https://uploads-bucket.s3.${REGION}.amazonaws.com/`);
    expect(upload.fields).toMatchObject({
      key: `incoming/${MEDIA_ID}`,
      'Content-Type': 'image/png',
      bucket: 'uploads-bucket',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': expect.stringMatching(
        new RegExp(`^${CREDENTIALS.accessKeyId}/\\d{8}/${REGION}/s3/aws4_request$`),
      ) as string,
      'X-Amz-Security-Token': CREDENTIALS.sessionToken,
    });
    // Signing sends nothing: the presign role's only use is the signature S3 checks at upload.
    expect(s3.calls()).toHaveLength(0);
  });

  it('holds a policy of exactly the key, exactly the content type, 1..the declared length, expiring in 15 minutes', async () => {
    const { upload, expiresAt } = await presign();
    const policy = decodePolicy(upload.fields);
    expect(Math.abs(Date.parse(policy.expiration) - expiresAt.getTime())).toBeLessThanOrEqual(1500);
    expect(upload.expiresAt.toISOString()).toBe(new Date(policy.expiration).toISOString());
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        { key: `incoming/${MEDIA_ID}` },
        { 'Content-Type': 'image/png' },
        ['content-length-range', 1, 5 * 1024 * 1024],
        { bucket: 'uploads-bucket' },
      ]),
    );
    // No prefix matches: neither the key nor the type can be changed within the policy.
    expect(policy.conditions.filter((c) => Array.isArray(c) && c[0] === 'starts-with')).toEqual([]);
    // Every form field but the policy and the signature is a condition, as S3 requires.
    const conditioned = new Set(policy.conditions.flatMap((c) => (Array.isArray(c) ? [] : Object.keys(c))));
    const unsigned = Object.keys(upload.fields).filter((f) => !['Policy', 'X-Amz-Signature'].includes(f));
    expect(unsigned.filter((field) => !conditioned.has(field))).toEqual([]);
  });

  it('is signed over that policy with the credentials of the signer', async () => {
    const { upload } = await presign();
    expect(upload.fields['X-Amz-Signature']).toBe(expectedSignature(upload.fields));
  });

  it('needs the uploads bucket only', async () => {
    await expect(
      storage({ mediaBucket: '' }).presignUpload({
        key: 'incoming/x',
        contentType: 'image/png',
        maxBytes: 10,
        expiresAt: new Date(Date.now() + 60_000),
      }),
    ).resolves.toBeDefined();
    await expect(
      storage({ uploadBucket: '' }).presignUpload({
        key: 'incoming/x',
        contentType: 'image/png',
        maxBytes: 10,
        expiresAt: new Date(Date.now() + 60_000),
      }),
    ).rejects.toThrow('MEDIA_UPLOAD_BUCKET is not configured');
  });
});

describe('the upload and the files', () => {
  it('reads the upload with GetObject from the uploads bucket; none there reads as undefined', async () => {
    const bytes = Buffer.from('image bytes');
    s3.on(GetObjectCommand, { Key: 'incoming/a' })
      .resolves({ Body: { transformToByteArray: () => Promise.resolve(new Uint8Array(bytes)) } as never })
      .on(GetObjectCommand, { Key: 'incoming/b' })
      .rejects(new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} }));
    expect(await storage().readUpload('incoming/a')).toEqual(bytes);
    expect(await storage().readUpload('incoming/b')).toBeUndefined();
    expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: 'uploads-bucket', Key: 'incoming/a' },
      { Bucket: 'uploads-bucket', Key: 'incoming/b' },
    ]);
  });

  it('deletes the upload with DeleteObject', async () => {
    s3.on(DeleteObjectCommand).resolves({});
    await storage().deleteUpload('incoming/a');
    expect(s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: 'uploads-bucket', Key: 'incoming/a' },
    ]);
  });

  it('puts a file into the media bucket with its content type and a year of immutable caching', async () => {
    s3.on(PutObjectCommand).resolves({});
    const body = Buffer.from('jpeg');
    await storage().putFile(`media/${MEDIA_ID}/large.jpg`, body, 'image/jpeg');
    expect(s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input)).toEqual([
      {
        Bucket: 'media-bucket',
        Key: `media/${MEDIA_ID}/large.jpg`,
        Body: body,
        ContentType: 'image/jpeg',
        CacheControl: 'public, max-age=31536000, immutable',
      },
    ]);
    expect(MEDIA_FILE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
  });

  it("deletes every file under a media's prefix, page by page", async () => {
    const prefix = mediaObjectKeys.mediaPrefix(MEDIA_ID);
    s3.on(ListObjectsV2Command, { ContinuationToken: undefined })
      .resolves({
        Contents: [{ Key: `${prefix}source.jpg` }, { Key: `${prefix}large.jpg` }],
        IsTruncated: true,
        NextContinuationToken: 't2',
      })
      .on(ListObjectsV2Command, { ContinuationToken: 't2' })
      .resolves({ Contents: [{ Key: `${prefix}small.jpg` }], IsTruncated: false });
    s3.on(DeleteObjectsCommand).resolves({});
    await storage().deleteFiles(prefix);
    expect(s3.commandCalls(ListObjectsV2Command).map((call) => call.args[0].input)).toEqual([
      { Bucket: 'media-bucket', Prefix: prefix, ContinuationToken: undefined },
      { Bucket: 'media-bucket', Prefix: prefix, ContinuationToken: 't2' },
    ]);
    expect(s3.commandCalls(DeleteObjectsCommand).map((call) => call.args[0].input)).toEqual([
      {
        Bucket: 'media-bucket',
        Delete: { Objects: [{ Key: `${prefix}source.jpg` }, { Key: `${prefix}large.jpg` }], Quiet: true },
      },
      { Bucket: 'media-bucket', Delete: { Objects: [{ Key: `${prefix}small.jpg` }], Quiet: true } },
    ]);
  });

  it('sends no delete when nothing is under the prefix, and fails loudly when S3 refuses one', async () => {
    s3.on(ListObjectsV2Command)
      .resolvesOnce({ KeyCount: 0 })
      .resolves({ Contents: [{ Key: 'media/x/a.jpg' }] });
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'media/x/a.jpg', Code: 'AccessDenied' }] });
    await storage().deleteFiles('media/x/');
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
    await expect(storage().deleteFiles('media/x/')).rejects.toThrow('AccessDenied');
  });
});
