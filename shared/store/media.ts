/**
 * The media item (`MEDIA#<id>`): its creation, the processor's transitions
 * `awaiting_upload → processing → ready | failed` (each a conditional write: S3 may send an event
 * twice), and the transaction items that attach it to a profile or post and release it again.
 *
 * Its expiry (the table's TTL attribute) is what deletes a media with its files: set at creation
 * (never attached: created + 24 h), removed while attached, set again when released (replaced +
 * 30 days). DynamoDB deletes the item some time after the expiry; the item's REMOVE on the stream
 * deletes the files (functions/media-pipeline/clean-up-media.ts). Until then, reads and attaching
 * treat an expired item as gone, so the 24 hours hold to the second.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MediaVariant } from '../domain/entities.js';
import {
  MEDIA_PROCESSING_LEASE_SECONDS,
  MEDIA_REPLACED_TTL_SECONDS,
  type MediaFailureCode,
  type MediaRecord,
} from '../domain/media.js';
import { db, tableName } from './client.js';
import { conditionOutcome } from './conditional.js';
import { entities } from './entities.js';
import { epochNow, epochSeconds } from './epoch.js';
import { updateRequest, when } from './expressions.js';
import { putItem, recordOf } from './items.js';
import { keys } from './keys.js';
import { TABLE } from './table.js';
import type { TransactItem } from './transact.js';
import { sendUpdate } from './update.js';

/** Whether an item's expiry has passed at `now` (DynamoDB may not have deleted it yet). */
const expired = (item: Record<string, unknown>, now: Date) => {
  const expiresAt = item[TABLE.ttlAttribute];
  return typeof expiresAt === 'number' && expiresAt <= epochNow(now);
};

/** Puts a new media (`awaiting_upload`, expiring 24 h after its creation unless attached). */
export async function createMedia(media: MediaRecord): Promise<void> {
  await putItem(entities.media, media);
}

/**
 * The media, or undefined when there is none or its expiry has passed. A key-only item left by
 * `releaseMediaItem` on a media that was already gone (no entity tag) is no media either.
 */
export async function getMedia(id: string, now: Date = new Date()): Promise<MediaRecord | undefined> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.media(id), ConsistentRead: true }),
  );
  if (!Item || Item.entity === undefined || expired(Item, now)) return undefined;
  return recordOf(entities.media, Item);
}

/**
 * The processor's claim: `awaiting_upload → processing`, or a `processing` claim older than the
 * lease taken again (its attempt died; Lambda retries the event). Returns the claimed media, or
 * undefined when there is nothing to do: no such media, already claimed by a live attempt, or
 * processed already (the same event seen twice).
 */
export async function claimMediaForProcessing(id: string, now: Date): Promise<MediaRecord | undefined> {
  const staleBefore = new Date(now.getTime() - MEDIA_PROCESSING_LEASE_SECONDS * 1000).toISOString();
  const outcome = await conditionOutcome(
    sendUpdate({
      key: keys.media(id),
      set: { status: 'processing', updated_at: now.toISOString() },
      when: [
        when.exists(),
        when.any(
          when.is('status', 'awaiting_upload'),
          when.all(when.is('status', 'processing'), when.compare('updated_at', '<', staleBefore)),
        ),
      ],
      returns: 'ALL_NEW',
    }),
  );
  return outcome.held ? recordOf(entities.media, outcome.result.Attributes!) : undefined;
}

/** How processing ended. */
export type MediaOutcome =
  | { status: 'ready'; urls: MediaVariant; width: number; height: number }
  | { status: 'failed'; errorCode: MediaFailureCode; errorMessage: string };

/**
 * Ends the claim `claimed` (the media as `claimMediaForProcessing` returned it) with the outcome.
 * Guarded by that claim's time: an attempt whose claim was taken over meanwhile changes nothing.
 * Returns the media as stored, or undefined when the claim was no longer this attempt's.
 */
export async function finishMediaProcessing(
  claimed: MediaRecord,
  outcome: MediaOutcome,
  now: Date,
): Promise<MediaRecord | undefined> {
  const changes =
    outcome.status === 'ready'
      ? { status: 'ready', urls: outcome.urls, width: outcome.width, height: outcome.height }
      : { status: 'failed', error_code: outcome.errorCode, error_message: outcome.errorMessage };
  const finished = await conditionOutcome(
    sendUpdate({
      key: keys.media(claimed.id),
      set: { ...changes, updated_at: now.toISOString() },
      when: [when.exists(), when.is('status', 'processing'), when.is('updated_at', claimed.updated_at)],
      returns: 'ALL_NEW',
    }),
  );
  return finished.held ? recordOf(entities.media, finished.result.Attributes!) : undefined;
}

/**
 * Transaction item: the media is now attached (to a profile slot or a post), so it no longer
 * expires. Its condition: the media is still there, unexpired, `ready`, and the profile's it was
 * read as (a cancelled transaction at this item means it changed since it was read).
 */
export function attachMediaItem(media: MediaRecord, now: Date): TransactItem {
  return {
    Update: updateRequest({
      key: keys.media(media.id),
      remove: [TABLE.ttlAttribute],
      when: [
        when.exists(),
        when.is('status', 'ready'),
        when.is('profile_id', media.profile_id),
        when.any(when.lacks(TABLE.ttlAttribute), when.compare(TABLE.ttlAttribute, '>', epochNow(now))),
      ],
    }),
  };
}

/**
 * Transaction item: the media was replaced (or detached) and is deleted, with its files, 30 days
 * from `now`, so pages that still show its URLs keep working meanwhile. It has no condition, so it
 * never cancels the caller's transaction: when the item is gone already, the update leaves a
 * key-only item with the same expiry, which `getMedia` does not count as media and whose removal
 * deletes no files. A caller must not release a media that another slot or post still shows (the
 * same media on a profile's light and dark variants).
 */
export function releaseMediaItem(mediaId: string, now: Date): TransactItem {
  return {
    Update: updateRequest({
      key: keys.media(mediaId),
      set: { [TABLE.ttlAttribute]: epochSeconds(now) + MEDIA_REPLACED_TTL_SECONDS },
    }),
  };
}

/** The media id of a media item's key (a stream record's `Keys`), or undefined for any other item. */
export function mediaIdOfKey(key: { pk?: string; sk?: string }): string | undefined {
  const prefix = keys.media('').pk;
  return key.sk === keys.media('').sk && key.pk?.startsWith(prefix) ? key.pk.slice(prefix.length) : undefined;
}
