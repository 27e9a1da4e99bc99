/**
 * Storage hygiene on the local runtime, with the reaper's clock injected: media never attached is
 * gone with its files 24 hours after its creation, media released from a profile 30 days after,
 * attached media never; uploads nobody processed go after a day. The reaper deletes the item as
 * DynamoDB's TTL would; its REMOVE reaches the clean-up through the table stream, as in AWS.
 * On a table of its own: a reaper with a clock a year ahead deletes every media it can see.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local.js';
import { mediaRuntime, type MediaRuntime } from '../../infra/local/media-runtime.js';
import { StreamPoller } from '../../infra/local/stream-poller.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { newId } from '../../shared/domain/ids.js';
import { mediaObjectKeys, newMedia, type MediaRecord } from '../../shared/domain/media.js';
import { attachMediaItem, createMedia, getMedia, releaseMediaItem } from '../../shared/store/media.js';
import { transact } from '../../shared/store/transact.js';
import { photo, postUpload } from '../support/media.js';

const endpoint = inject('dynamodbEndpoint');
const table = `media-expiry-${randomBytes(4).toString('hex')}`;
process.env.TABLE_NAME = table;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = new Date();
let runtime: MediaRuntime;
let server: Server;
let poller: StreamPoller;

beforeAll(async () => {
  await ensureTable(endpoint, table);
  runtime = mediaRuntime({ inMemory: true, dataDir: '', now: () => clock, reapEveryMs: 0 });
  server = createServer((req, res) => void runtime.serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await runtime.start(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  poller = new StreamPoller(
    endpoint,
    { 'media-clean-up': { handler: runtime.onStream, ...STREAM_BATCHING['media-clean-up'] } },
    50,
  );
  await poller.start();
});
afterAll(async () => {
  await poller.stop();
  await runtime.stop();
  server.close();
  const client = localClient(endpoint);
  await client.send(new DeleteTableCommand({ TableName: table }));
  client.destroy();
});

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A media uploaded through the local route and processed: ready, with its files. */
async function readyMedia(): Promise<MediaRecord> {
  const file = await photo(300, 300);
  const media = newMedia(clock, newId(), {
    purpose: 'avatar',
    content_type: 'image/jpeg',
    content_length: file.length,
  });
  await createMedia(media);
  const form = await runtime.storage.presignUpload({
    key: mediaObjectKeys.upload(media.id),
    contentType: 'image/jpeg',
    maxBytes: file.length,
    expiresAt: new Date(clock.getTime() + 15 * 60_000),
  });
  const upload = { url: form.url, method: 'POST' as const, fields: form.fields, expires_at: '' };
  expect((await postUpload(upload, file)).status).toBe(204);
  let ready: MediaRecord | undefined;
  await eventually(async () => (ready = await getMedia(media.id, clock))?.status === 'ready');
  return ready!;
}

const largeKey = (media: MediaRecord) => new URL(media.urls!.large_url).pathname.replace('/local-media/', '');
const hasFiles = async (media: MediaRecord) => (await runtime.storage.readFile(largeKey(media))) !== undefined;

describe('media expiry on the local runtime', () => {
  it('media never attached is gone, with its files, 24 hours after its creation', async () => {
    const media = await readyMedia();
    const created = Date.parse(media.created_at);
    expect(await hasFiles(media)).toBe(true);
    expect((await fetch(media.urls!.small_url)).status).toBe(200);

    expect((await runtime.reap(new Date(created + DAY - 2000))).media).not.toContain(media.id);
    expect(await getMedia(media.id, new Date(created + DAY - 2000))).toBeDefined();

    expect((await runtime.reap(new Date(created + DAY + 1000))).media).toContain(media.id);
    expect(await getMedia(media.id, new Date(created))).toBeUndefined();
    await eventually(async () => !(await hasFiles(media)));
    expect((await fetch(media.urls!.small_url)).status).toBe(404);
  });

  it('attached media stays; once released it goes 30 days after the release', async () => {
    const media = await readyMedia();
    await transact([attachMediaItem(media, clock)]);
    const inAYear = new Date(clock.getTime() + 365 * DAY);
    expect((await runtime.reap(inAYear)).media).not.toContain(media.id);
    expect(await getMedia(media.id, inAYear)).toBeDefined();

    const released = new Date(clock.getTime() + 2 * DAY);
    await transact([releaseMediaItem(media.id, released)]);
    expect((await runtime.reap(new Date(released.getTime() + 30 * DAY - 2000))).media).not.toContain(media.id);
    expect(await hasFiles(media)).toBe(true);
    expect((await runtime.reap(new Date(released.getTime() + 30 * DAY + 1000))).media).toContain(media.id);
    await eventually(async () => !(await hasFiles(media)));
  });

  it('an upload nobody processed (no such media) is deleted a day after it arrived', async () => {
    const key = mediaObjectKeys.upload(newId());
    const form = await runtime.storage.presignUpload({
      key,
      contentType: 'image/png',
      maxBytes: 100,
      expiresAt: new Date(clock.getTime() + 60_000),
    });
    const arrived = clock;
    expect(
      (await postUpload({ url: form.url, method: 'POST', fields: form.fields, expires_at: '' }, Buffer.from('x')))
        .status,
    ).toBe(204);
    await new Promise((r) => setTimeout(r, 200));
    expect(await runtime.storage.readUpload(key)).toEqual(Buffer.from('x'));

    expect((await runtime.reap(new Date(arrived.getTime() + 23 * HOUR))).uploads).toEqual([]);
    expect((await runtime.reap(new Date(arrived.getTime() + DAY + 1000))).uploads).toEqual([key]);
    expect(await runtime.storage.readUpload(key)).toBeUndefined();
  });
});
