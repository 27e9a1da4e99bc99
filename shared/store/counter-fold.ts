/**
 * Counters folded from the table stream, exactly once: a consumer turns one stream shard's batch
 * into changes per counter item and adds them with ONE UpdateItem per item per batch, conditioned
 * on the item's watermark for the shard (store/shard-watermarks.ts), so a batch delivered again
 * counts only the records after it.
 */
import type { ItemKey } from './batch.js';
import { conditionHeld, conditionOutcome } from './conditional.js';
import { when } from './expressions.js';
import {
  afterWatermark,
  foldInRounds,
  inSequenceOrder,
  paddedSequence,
  staleWatermarks,
  watermarkAfter,
  watermarkAttribute,
  type FoldSettings,
  type RoundOutcome,
} from './shard-watermarks.js';
import { sendUpdate } from './update.js';

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
  const watermark = watermarkAttribute(shardId);
  // The watermark is unknown at first: the common case is a batch after it. Known after a refusal.
  return foldInRounds<RoundState, number | 'item_missing'>(
    `counter fold on ${item.key.pk}`,
    MAX_ROUNDS,
    { pending: inSequenceOrder(changes) },
    (state) => foldRound(item, watermark, state, settings),
  );
}

interface RoundState {
  /** The changes not yet counted, in sequence order. */
  pending: readonly CountedChange[];
  /** The watermark the item held when the last round was refused. */
  current?: string;
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
  { pending, current }: RoundState,
  settings: FoldSettings,
): Promise<RoundOutcome<RoundState, number | 'item_missing'>> {
  if (pending.length === 0) return { done: 0 };
  const itemExists = item.createAs === undefined ? [when.exists()] : [];
  const watermarkBefore =
    current === undefined
      ? when.any(when.lacks(watermark), when.compare(watermark, '<', paddedSequence(pending[0]!.sequenceNumber)))
      : when.is(watermark, current);
  const outcome = await conditionOutcome(
    sendUpdate({
      key: item.key,
      set: {
        [watermark]: watermarkAfter(pending[pending.length - 1]!, settings.now),
        ...(item.createAs === undefined ? {} : { entity: item.createAs }),
      },
      add: sum(pending),
      when: [...itemExists, watermarkBefore],
      returns: 'ALL_NEW',
      returnOnRefusal: 'ALL_OLD',
    }),
  );
  if (outcome.held) {
    await pruneWatermarks(item.key, outcome.result.Attributes ?? {}, settings);
    return { done: pending.length };
  }
  if (!outcome.item && item.createAs === undefined) return { done: 'item_missing' };
  const seen = outcome.item?.[watermark] as string | undefined;
  // Refused although the watermark is gone (pruned meanwhile): try again from the top.
  if (seen === undefined) return { again: { pending } };
  return { again: { pending: afterWatermark(pending, seen), current: seen } };
}

/** Removes the watermarks of shards not folded for longer than `keepSeconds` (rare: a few a day). */
async function pruneWatermarks(key: ItemKey, item: Record<string, unknown>, settings: FoldSettings): Promise<void> {
  const stale = staleWatermarks(item, settings);
  if (stale.length === 0) return;
  // Only if none of them moved meanwhile; one that did is pruned by a later fold.
  await conditionHeld(
    sendUpdate({
      key,
      remove: stale.map(([name]) => name),
      when: stale.map(([name, value]) => when.is(name, value)),
    }),
  );
}
