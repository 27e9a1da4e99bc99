/**
 * The media item on DynamoDB Local: its expiry while unattached, the processor's claim and its
 * lease, the finish guarded by the claim, and the attach/release transaction items.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import {
  MEDIA_PROCESSING_LEASE_SECONDS,
  MEDIA_REPLACED_TTL_SECONDS,
  MEDIA_UNATTACHED_TTL_SECONDS,
  newMedia,
} from '../../shared/domain/media.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import {
  attachMediaItem,
  claimMediaForProcessing,
  createMedia,
  finishMediaProcessing,
  getMedia,
  releaseMediaItem,
} from '../../shared/store/media.js';
import { TABLE } from '../../shared/store/table.js';
import { transactConditional } from '../../shared/store/transact.js';

const SECOND = 1000;
const rawItem = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.media(id), ConsistentRead: true }))).Item;
const epoch = (date: Date) => Math.ceil(date.getTime() / 1000);

async function storedMedia(createdAt = new Date()) {
  const media = newMedia(createdAt, newId(), { purpose: 'avatar', content_type: 'image/png', content_length: 1234 });
  await createMedia(media);
  return media;
}

const urls = {
  source_url: 'https://cdn.example/media/x/source.png',
  large_url: 'https://cdn.example/media/x/large.png',
  medium_url: 'https://cdn.example/media/x/medium.png',
  small_url: 'https://cdn.example/media/x/small.png',
};

async function readyMedia() {
  const media = await storedMedia();
  const claimed = (await claimMediaForProcessing(media.id, new Date()))!;
  return (await finishMediaProcessing(claimed, { status: 'ready', urls, width: 800, height: 800 }, new Date()))!;
}

describe('a new media', () => {
  it('is stored awaiting its upload, expiring 24 hours after its creation', async () => {
    const created = new Date();
    const media = await storedMedia(created);
    expect(await getMedia(media.id)).toEqual(media);
    const item = await rawItem(media.id);
    expect(item).toMatchObject({ entity: 'media', status: 'awaiting_upload' });
    expect(item?.[TABLE.ttlAttribute]).toBe(Math.ceil(created.getTime() / 1000) + MEDIA_UNATTACHED_TTL_SECONDS);
  });

  it('reads as gone once its expiry has passed, before DynamoDB deletes it', async () => {
    const created = new Date();
    const media = await storedMedia(created);
    const expiry = new Date(created.getTime() + MEDIA_UNATTACHED_TTL_SECONDS * SECOND);
    expect(await getMedia(media.id, new Date(expiry.getTime() - 2 * SECOND))).toBeDefined();
    expect(await getMedia(media.id, new Date(expiry.getTime() + SECOND))).toBeUndefined();
  });
});

describe("the processor's claim", () => {
  it('is taken once: the same event seen again finds nothing to do', async () => {
    const media = await storedMedia();
    const now = new Date();
    const claimed = await claimMediaForProcessing(media.id, now);
    expect(claimed).toMatchObject({ id: media.id, status: 'processing', updated_at: now.toISOString() });
    expect(await claimMediaForProcessing(media.id, new Date(now.getTime() + SECOND))).toBeUndefined();
    expect(await claimMediaForProcessing(newId(), now)).toBeUndefined();
  });

  it('left by a dead attempt is taken again after the lease, and the dead attempt can no longer finish', async () => {
    const media = await storedMedia();
    const first = new Date();
    const dead = (await claimMediaForProcessing(media.id, first))!;
    const withinLease = new Date(first.getTime() + (MEDIA_PROCESSING_LEASE_SECONDS - 1) * SECOND);
    expect(await claimMediaForProcessing(media.id, withinLease)).toBeUndefined();
    const afterLease = new Date(first.getTime() + (MEDIA_PROCESSING_LEASE_SECONDS + 1) * SECOND);
    const retry = await claimMediaForProcessing(media.id, afterLease);
    expect(retry).toMatchObject({ status: 'processing', updated_at: afterLease.toISOString() });

    const late = await finishMediaProcessing(
      dead,
      { status: 'failed', errorCode: 'unsupported_media_type', errorMessage: 'late' },
      afterLease,
    );
    expect(late).toBeUndefined();
    const done = await finishMediaProcessing(retry!, { status: 'ready', urls, width: 800, height: 800 }, afterLease);
    expect(done).toMatchObject({ status: 'ready', urls, width: 800, height: 800, error_code: null });
    expect(await claimMediaForProcessing(media.id, new Date(afterLease.getTime() + 3600 * SECOND))).toBeUndefined();
  });

  it('ends failed with the error code and message', async () => {
    const media = await storedMedia();
    const claimed = (await claimMediaForProcessing(media.id, new Date()))!;
    const failed = await finishMediaProcessing(
      claimed,
      { status: 'failed', errorCode: 'image_too_large', errorMessage: 'Too many pixels.' },
      new Date(),
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error_code: 'image_too_large',
      error_message: 'Too many pixels.',
      urls: null,
    });
  });
});

describe('attaching and releasing', () => {
  it('attaching a ready media removes its expiry; releasing it sets 30 days from then', async () => {
    const media = await readyMedia();
    const now = new Date();
    expect(await transactConditional([attachMediaItem(media, now)])).toEqual({ ok: true });
    expect((await rawItem(media.id))?.[TABLE.ttlAttribute]).toBeUndefined();
    expect(await getMedia(media.id, new Date(now.getTime() + 30 * 86_400 * SECOND))).toBeDefined();

    expect(await transactConditional([releaseMediaItem(media.id, now)])).toEqual({ ok: true });
    expect((await rawItem(media.id))?.[TABLE.ttlAttribute]).toBe(epoch(now) + MEDIA_REPLACED_TTL_SECONDS);
  });

  it('refuses a media that is not ready, is expired, or is not the profile it was read as', async () => {
    const waiting = await storedMedia();
    expect(await transactConditional([attachMediaItem(waiting, new Date())])).toEqual({ ok: false, failed: [true] });

    const ready = await readyMedia();
    const afterExpiry = new Date(Date.now() + (MEDIA_UNATTACHED_TTL_SECONDS + 5) * SECOND);
    expect(await transactConditional([attachMediaItem(ready, afterExpiry)])).toEqual({ ok: false, failed: [true] });
    expect(await transactConditional([attachMediaItem({ ...ready, profile_id: newId() }, new Date())])).toEqual({
      ok: false,
      failed: [true],
    });
    expect(await transactConditional([attachMediaItem({ ...ready, id: newId() }, new Date())])).toEqual({
      ok: false,
      failed: [true],
    });
  });

  it('releasing a media that is gone never cancels the transaction, and leaves no media behind', async () => {
    const id = newId();
    const now = new Date();
    expect(await transactConditional([releaseMediaItem(id, now)])).toEqual({ ok: true });
    expect(await getMedia(id)).toBeUndefined();
    expect((await rawItem(id))?.[TABLE.ttlAttribute]).toBe(epoch(now) + MEDIA_REPLACED_TTL_SECONDS);
  });
});
