/**
 * The local runtime's upload route in-process, on its own HTTP server and with its own clock:
 * every way a form can break its signed policy is refused with nothing stored; a good form is
 * stored and processed. Then the processor itself, on DynamoDB Local: an event seen twice, a claim
 * left by a dead attempt, an upload longer than declared. And the storage on disk.
 */
import { createServer, type Server } from 'node:http';
import type { S3Event } from 'aws-lambda';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processUploadHandler } from '../../functions/media-pipeline/process-upload-handler.js';
import { LocalMediaStorage } from '../../infra/local/local-media-storage.js';
import { mediaRuntime, type MediaRuntime } from '../../infra/local/media-runtime.js';
import { newId } from '../../shared/domain/ids.js';
import {
  MEDIA_PROCESSING_LEASE_SECONDS,
  mediaObjectKeys,
  newMedia,
  type MediaRecord,
} from '../../shared/domain/media.js';
import { processUpload } from '../../shared/media/process-upload.js';
import { claimMediaForProcessing, createMedia, getMedia } from '../../shared/store/media.js';
import { photo, postUpload, type Upload } from '../support/media.js';

let clock = new Date();
let runtime: MediaRuntime;
let server: Server;

beforeAll(async () => {
  runtime = mediaRuntime({ inMemory: true, dataDir: '', now: () => clock, reapEveryMs: 0 });
  server = createServer((req, res) => void runtime.serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await runtime.start(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await runtime.stop();
  server.close();
});

async function mediaWithForm(
  storage: LocalMediaStorage,
  maxBytes: number,
  fields: Partial<Pick<MediaRecord, 'purpose' | 'content_type'>> = {},
) {
  const media = newMedia(clock, newId(), {
    purpose: fields.purpose ?? 'avatar',
    content_type: fields.content_type ?? 'image/jpeg',
    content_length: maxBytes,
  });
  await createMedia(media);
  const presigned = await storage.presignUpload({
    key: mediaObjectKeys.upload(media.id),
    contentType: media.content_type,
    maxBytes,
    expiresAt: new Date(clock.getTime() + 15 * 60_000),
  });
  const upload: Upload = {
    url: presigned.url,
    method: 'POST',
    fields: presigned.fields,
    expires_at: presigned.expiresAt.toISOString(),
  };
  return { media, upload, key: mediaObjectKeys.upload(media.id) };
}

const codeOf = (text: string) => /<Code>(\w+)<\/Code>/.exec(text)?.[1];

async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not done after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the local upload route refuses a form that breaks its policy, and stores nothing', () => {
  let file: Buffer;
  beforeAll(async () => {
    file = await photo(200, 200);
  });

  /** Posts the form (changed by `change`) and expects the refusal, with no upload stored and the media still waiting. */
  async function expectRefused(
    post: (upload: Upload) => Promise<{ status: number; text: string }>,
    status: number,
    code: string,
    maxBytes = file.length,
  ) {
    const { media, upload, key } = await mediaWithForm(runtime.storage, maxBytes);
    const answer = await post(upload);
    expect([answer.status, codeOf(answer.text)]).toEqual([status, code]);
    expect(await runtime.storage.readUpload(key)).toBeUndefined();
    expect((await getMedia(media.id))?.status).toBe('awaiting_upload');
    return { media, upload };
  }

  it('an expired form (15 minutes after signing, on the route’s clock)', async () => {
    const signedAt = clock;
    try {
      const { upload } = await expectRefused(
        async (form) => {
          clock = new Date(signedAt.getTime() + 15 * 60_000 + 1000);
          return postUpload(form, file);
        },
        403,
        'AccessDenied',
      );
      // The same form a second before its expiry is accepted.
      clock = new Date(Date.parse(upload.expires_at) - 1000);
      expect((await postUpload(upload, file)).status).toBe(204);
    } finally {
      clock = new Date();
    }
  });

  it('more bytes than the declared length, and an empty file', async () => {
    await expectRefused((form) => postUpload(form, file), 400, 'EntityTooLarge', file.length - 1);
    await expectRefused((form) => postUpload(form, Buffer.alloc(0)), 400, 'EntityTooSmall');
  });

  it('a changed field: another content type, another media’s key, a field the policy does not name', async () => {
    await expectRefused(
      (form) => postUpload(form, file, { fields: { 'Content-Type': 'image/png' } }),
      403,
      'AccessDenied',
    );
    const other = await mediaWithForm(runtime.storage, file.length);
    await expectRefused((form) => postUpload(form, file, { fields: { key: other.key } }), 403, 'AccessDenied');
    expect(await runtime.storage.readUpload(other.key)).toBeUndefined();
    await expectRefused((form) => postUpload(form, file, { fields: { acl: 'public-read' } }), 403, 'AccessDenied');
  });

  it('a policy changed or signed by anyone but this storage', async () => {
    const widened = (form: Upload) => {
      const policy = JSON.parse(Buffer.from(form.fields.Policy!, 'base64').toString()) as { conditions: unknown[] };
      policy.conditions = policy.conditions.map((c) => (Array.isArray(c) ? ['content-length-range', 1, 10 ** 9] : c));
      return Buffer.from(JSON.stringify(policy)).toString('base64');
    };
    await expectRefused(
      (form) => postUpload(form, file, { fields: { Policy: widened(form) } }),
      403,
      'SignatureDoesNotMatch',
      10,
    );
    const stranger = new LocalMediaStorage({ inMemory: true, dataDir: '', uploadUrl: () => 'x', now: () => clock });
    await expectRefused(
      async (form) => {
        const foreign = await stranger.presignUpload({
          key: form.fields.key!,
          contentType: 'image/jpeg',
          maxBytes: 10 ** 9,
          expiresAt: new Date(clock.getTime() + 60_000),
        });
        return postUpload(form, file, { fields: foreign.fields });
      },
      403,
      'SignatureDoesNotMatch',
      10,
    );
  });

  it('a form without its file, or not a multipart form at all', async () => {
    await expectRefused(
      async (form) => {
        const body = new FormData();
        for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
        const response = await fetch(form.url, { method: 'POST', body });
        return { status: response.status, text: await response.text() };
      },
      400,
      'MalformedPOSTRequest',
    );
    await expectRefused(
      async (form) => {
        const response = await fetch(form.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(form.fields),
        });
        return { status: response.status, text: await response.text() };
      },
      400,
      'MalformedPOSTRequest',
    );
  });

  it('a good form is stored, processed as S3’s event would have it, and its upload then deleted', async () => {
    const { media, upload, key } = await mediaWithForm(runtime.storage, file.length);
    expect((await postUpload(upload, file)).status).toBe(204);
    const ready = await waitUntil(
      () => getMedia(media.id),
      (m) => m?.status === 'ready',
    );
    expect(ready?.urls?.large_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/local-media\/media\/[0-9a-f-]+\/large\.jpg$/);
    expect(await runtime.storage.readUpload(key)).toBeUndefined();
    const served = await fetch(ready!.urls!.small_url);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect((await fetch(`${ready!.urls!.small_url}.missing`)).status).toBe(404);
    expect((await fetch(upload.url)).status).toBe(405);
  });
});

describe('the processor', () => {
  const storage = new LocalMediaStorage({ inMemory: true, dataDir: '', uploadUrl: () => 'x', now: () => new Date() });
  const settings = { mediaBaseUrl: 'https://media.example' };

  const formEntries = (fields: Record<string, string>, file: Buffer): [string, string | Blob][] => [
    ...Object.entries(fields),
    ['file', new Blob([new Uint8Array(file)])],
  ];

  /** A media and its stored upload; `policyMaxBytes` lets a policy allow more than the media declares. */
  async function uploaded(declaredLength?: number, policyMaxBytes?: number) {
    const file = await photo(300, 200);
    const media = newMedia(new Date(), newId(), {
      purpose: 'avatar',
      content_type: 'image/jpeg',
      content_length: declaredLength ?? file.length,
    });
    await createMedia(media);
    const key = mediaObjectKeys.upload(media.id);
    const form = await storage.presignUpload({
      key,
      contentType: 'image/jpeg',
      maxBytes: policyMaxBytes ?? file.length,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await storage.acceptUpload(formEntries(form.fields, file))).ok).toBe(true);
    return { media, key };
  }

  it('handles an event seen twice, even at the same moment, once', async () => {
    const { media, key } = await uploaded();
    const results = await Promise.all([
      processUpload(media.id, { storage }, settings),
      processUpload(media.id, { storage }, settings),
    ]);
    expect(results.sort()).toEqual(['not_claimed', 'ready']);
    const ready = (await getMedia(media.id))!;
    expect(ready).toMatchObject({ status: 'ready', width: 800, height: 800 });
    expect(ready.urls?.large_url).toBe(`https://media.example/media/${media.id}/large.jpg`);
    expect(await storage.readUpload(key)).toBeUndefined();

    // The S3-shaped handler with the same event later: nothing changes.
    const handler = processUploadHandler({ storage }, () => settings);
    await handler({ Records: [{ s3: { object: { key } } }] } as S3Event);
    expect(await getMedia(media.id)).toEqual(ready);
    expect(await storage.readFile(`media/${media.id}/large.jpg`)).toMatchObject({ contentType: 'image/jpeg' });
  });

  it('takes over a claim left by a dead attempt once the lease has passed', async () => {
    const { media } = await uploaded();
    const died = new Date(Date.now() - (MEDIA_PROCESSING_LEASE_SECONDS - 5) * 1000);
    expect(await claimMediaForProcessing(media.id, died)).toBeDefined();
    expect(await processUpload(media.id, { storage }, settings)).toBe('not_claimed');
    const later = () => new Date(died.getTime() + (MEDIA_PROCESSING_LEASE_SECONDS + 1) * 1000);
    expect(await processUpload(media.id, { storage, now: later }, settings)).toBe('ready');
  });

  it('fails an upload longer than its declared length, whatever the policy let through', async () => {
    const { media, key } = await uploaded(100, 10 ** 6);
    expect(await processUpload(media.id, { storage }, settings)).toBe('failed');
    expect(await getMedia(media.id)).toMatchObject({ status: 'failed', error_code: 'image_too_large', urls: null });
    expect(await storage.readUpload(key)).toBeUndefined();
  });
});

describe('the storage on disk', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'media-storage-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const onDisk = () => new LocalMediaStorage({ inMemory: false, dataDir, uploadUrl: () => 'x', now: () => new Date() });

  it('writes nothing until used, keeps files with their type, deletes by prefix, and signs with one secret per directory', async () => {
    const first = onDisk();
    expect(existsSync(join(dataDir, 'media'))).toBe(false);
    await first.putFile('media/m1/large.jpg', Buffer.from('jpeg'), 'image/jpeg');
    await first.putFile('media/m1/small.webp', Buffer.from('webp'), 'image/webp');
    await first.putFile('media/m2/large.jpg', Buffer.from('other'), 'image/jpeg');
    const second = onDisk();
    expect(await second.readFile('media/m1/small.webp')).toMatchObject({
      contentType: 'image/webp',
      body: Buffer.from('webp'),
    });
    expect(await second.readFile('media/../../etc/passwd')).toBeUndefined();
    await second.deleteFiles('media/m1/');
    expect(await first.readFile('media/m1/large.jpg')).toBeUndefined();
    expect(await first.readFile('media/m2/large.jpg')).toBeDefined();

    // A form signed before a restart still uploads after it.
    const form = await first.presignUpload({
      key: 'incoming/abc',
      contentType: 'image/png',
      maxBytes: 10,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const accepted = await second.acceptUpload([
      ...Object.entries(form.fields),
      ['file', new Blob([new Uint8Array(Buffer.from('png'))])],
    ]);
    expect(accepted.ok).toBe(true);
    expect(await first.readUpload('incoming/abc')).toEqual(Buffer.from('png'));
  });
});
