/**
 * Counters folded from the table stream, exactly once: a consumer turns one stream shard's batch
 * into changes per counter item and adds them with ONE UpdateItem per item per batch. The item
 * keeps, per stream shard, the sequence number of the last record it counted (the watermark), and
 * the update is conditioned on it, so a batch delivered again (a retry, an overlap after a partial
 * failure, a replay after a restart) counts only the records after it.
 *
 * A watermark is `<sequence number, zero-padded>|<epoch seconds it was written>`: the padding makes
 * string order sequence order, the time lets watermarks be pruned once no record at or before them
 * can be delivered again (how long that is depends on the consumer's event source: `keepSeconds`),
 * so the item stays small.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './batch.js';
import { db } from './client.js';
import { conditionHeld, conditionOutcome } from './conditional.js';
import { updateItem, when } from './expressions.js';
import { TABLE } from './table.js';

/** Counter attribute → how much one record (or a batch) adds to it. */
export type CounterDelta = Record<string, number>;

/** One stream record's change to one counter item. */
export interface CountedChange {
  sequenceNumber: string;
  delta: CounterDelta;
}

/** Where a fold adds its changes. */
export interface CounterItem {
  key: ItemKey;
  /**
   * An item that holds only counters is created by its first fold, tagged with this entity.
   * Without it the counters live on an item of their own right (a post, a comment) that a fold
   * never creates: changes for an item that does not exist are not counted.
   */
  createAs?: string;
}

export interface FoldSettings {
  now: Date;
  /** How long a shard's watermark is kept after its last fold: longer than any redelivery of its records. */
  keepSeconds: number;
}

/** The stream keeps records 24 h; an hour's margin for clocks and in-flight retries. */
export const WHOLE_STREAM_KEEP_SECONDS = 25 * 3600;

/** DynamoDB Streams sequence numbers are 21 to 40 digits. */
const SEQUENCE_DIGITS = 40;
const paddedSequence = (sequenceNumber: string) => sequenceNumber.padStart(SEQUENCE_DIGITS, '0');
const watermarkAttribute = (shardId: string) => `${TABLE.watermarkPrefix}${shardId}`;

const sum = (changes: readonly CountedChange[]): CounterDelta => {
  const total: CounterDelta = {};
  for (const { delta } of changes) {
    for (const [counter, value] of Object.entries(delta)) total[counter] = (total[counter] ?? 0) + value;
  }
  return Object.fromEntries(Object.entries(total).filter(([, value]) => value !== 0));
};

/** A refusal names the watermark the item holds; a fold goes at most this many rounds. */
const MAX_ROUNDS = 6;

/**
 * Adds the changes of one shard's batch to the item, each exactly once. Returns how many were
 * counted now (the others had been counted before), or `'item_missing'` when the counters live
 * on an item that does not exist (nothing is written then).
 */
export async function foldCounters(
  item: CounterItem,
  shardId: string,
  changes: readonly CountedChange[],
  settings: FoldSettings,
): Promise<number | 'item_missing'> {
  const inOrder = [...changes].sort((a, b) =>
    paddedSequence(a.sequenceNumber) < paddedSequence(b.sequenceNumber) ? -1 : 1,
  );
  // The watermark is unknown at first: the common case is a batch after it. Known after a refusal.
  return foldRound(item, watermarkAttribute(shardId), inOrder, undefined, settings, 1);
}

/**
 * One conditional update adding `pending` (in sequence order) and moving the watermark past it:
 * applied only if the watermark is still `current`, or, while unknown, before the first change.
 * A refusal returns the item as it was, and the next round adds only the changes after its
 * watermark.
 */
async function foldRound(
  item: CounterItem,
  watermark: string,
  pending: readonly CountedChange[],
  current: string | undefined,
  settings: FoldSettings,
  round: number,
): Promise<number | 'item_missing'> {
  if (pending.length === 0) return 0;
  const last = pending[pending.length - 1]!;
  const mark = `${paddedSequence(last.sequenceNumber)}|${Math.floor(settings.now.getTime() / 1000)}`;
  const itemExists = item.createAs === undefined ? [when.exists()] : [];
  const watermarkBefore =
    current === undefined
      ? when.any(when.lacks(watermark), when.compare(watermark, '<', paddedSequence(pending[0]!.sequenceNumber)))
      : when.is(watermark, current);
  const outcome = await conditionOutcome(
    db().send(
      new UpdateCommand(
        updateItem({
          key: item.key,
          set: { [watermark]: mark, ...(item.createAs === undefined ? {} : { entity: item.createAs }) },
          add: sum(pending),
          when: [...itemExists, watermarkBefore],
          returns: 'ALL_NEW',
          returnOnRefusal: 'ALL_OLD',
        }),
      ),
    ),
  );
  if (outcome.held) {
    await pruneWatermarks(item.key, outcome.result.Attributes ?? {}, settings);
    return pending.length;
  }
  if (round >= MAX_ROUNDS) throw new Error(`counter fold refused ${MAX_ROUNDS} times in a row on ${item.key.pk}`);
  if (!outcome.item && item.createAs === undefined) return 'item_missing';
  const seen = outcome.item?.[watermark] as string | undefined;
  // Refused although the watermark is gone (pruned meanwhile): try again from the top.
  if (seen === undefined) return foldRound(item, watermark, pending, undefined, settings, round + 1);
  const counted = seen.slice(0, seen.indexOf('|'));
  const after = pending.filter((change) => paddedSequence(change.sequenceNumber) > counted);
  return foldRound(item, watermark, after, seen, settings, round + 1);
}

/** Removes the watermarks of shards not folded for longer than `keepSeconds` (rare: a few a day). */
async function pruneWatermarks(key: ItemKey, item: Record<string, unknown>, settings: FoldSettings): Promise<void> {
  const oldest = Math.floor(settings.now.getTime() / 1000) - settings.keepSeconds;
  const stale = Object.entries(item).filter(
    ([name, value]) =>
      name.startsWith(TABLE.watermarkPrefix) &&
      typeof value === 'string' &&
      Number(value.slice(value.indexOf('|') + 1)) < oldest,
  ) as [string, string][];
  if (stale.length === 0) return;
  // Only if none of them moved meanwhile; one that did is pruned by a later fold.
  await conditionHeld(
    db().send(
      new UpdateCommand(
        updateItem({
          key,
          remove: stale.map(([name]) => name),
          when: stale.map(([name, value]) => when.is(name, value)),
        }),
      ),
    ),
  );
}
