/** Media ready to attach, made as a client makes it: create, upload the form, poll until processed. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { MEDIA_REPLACED_TTL_SECONDS } from '../../shared/domain/media.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { TABLE } from '../../shared/store/table.js';
import { createMedia, postUpload, waitForMedia, type Upload } from './media.js';
import { ok, type Actor } from './social.js';

export type Purpose = 'avatar' | 'banner' | 'post_image';

export interface MediaBody {
  id: string;
  profile_id: string;
  purpose: Purpose;
  status: string;
  width: number | null;
  height: number | null;
  urls: { source_url: string; large_url: string; medium_url: string; small_url: string } | null;
  error_code: string | null;
}

/** A PNG of one colour (generated with sharp). */
export const solidImage = (width: number, height: number, colour = { r: 40, g: 160, b: 90 }): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** A media of the actor's profile awaiting its upload, and the form to upload it with. */
export async function startMedia(
  a: Actor,
  purpose: Purpose,
  image: Buffer,
  contentType = 'image/png',
): Promise<{ media: MediaBody; upload: Upload }> {
  return ok(
    await createMedia(a.key, a.profile.id, { purpose, content_type: contentType, content_length: image.length }),
    201,
  );
}

/** Uploads `image` as a media of the actor's profile and waits until it is processed (ready or failed). */
export async function uploadMedia(
  a: Actor,
  purpose: Purpose,
  image?: Buffer,
  contentType = 'image/png',
): Promise<MediaBody> {
  const file = image ?? (await solidImage(purpose === 'banner' ? 1500 : 900, 600));
  const { media, upload } = await startMedia(a, purpose, file, contentType);
  const sent = await postUpload(upload, file, { fileType: contentType });
  if (sent.status >= 300) throw new Error(`upload refused: ${sent.status} ${sent.text}`);
  return ok(await waitForMedia(a.key, media.id));
}

export type ReadyMediaBody = MediaBody & { urls: NonNullable<MediaBody['urls']>; width: number; height: number };

/** `uploadMedia`, insisting on a ready media. */
export async function readyMedia(a: Actor, purpose: Purpose, image?: Buffer): Promise<ReadyMediaBody> {
  const media = await uploadMedia(a, purpose, image);
  if (media.status !== 'ready' || !media.urls) throw new Error(`media ${media.id} ended ${media.status}`);
  return media as ReadyMediaBody;
}

/**
 * Test-only: when the media item is due to expire (epoch seconds; undefined while attached), read
 * from DynamoDB Local: the API does not show it.
 */
export async function mediaExpiry(mediaId: string): Promise<number | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.media(mediaId), ConsistentRead: true }),
  );
  if (!Item) throw new Error(`no media item ${mediaId}`);
  return Item[TABLE.ttlAttribute] as number | undefined;
}

/** Whether an expiry is the 30 days of a released media, counted from about now. */
export const isReleaseExpiry = (expiry: number | undefined) =>
  expiry !== undefined && Math.abs(expiry - (Date.now() / 1000 + MEDIA_REPLACED_TTL_SECONDS)) < 120;
