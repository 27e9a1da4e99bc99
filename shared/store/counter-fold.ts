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
import { db, tableName } from './client.js';
import { TABLE } from './table.js';
import { isConditionFailure } from './transact.js';

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

type RawAttribute = string | { S?: string } | undefined;
const stringOf = (value: RawAttribute) => (typeof value === 'string' ? value : value?.S);

/** The refused update's item as DynamoDB returned it (ReturnValuesOnConditionCheckFailure), if any. */
const refusedItem = (error: unknown) => (error as { Item?: Record<string, RawAttribute> }).Item;

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
  let pending = [...changes].sort((a, b) =>
    paddedSequence(a.sequenceNumber) < paddedSequence(b.sequenceNumber) ? -1 : 1,
  );
  // Unknown at first: the common case is a batch after the watermark. Known after a refusal.
  let current: string | undefined;
  const mustExist = item.createAs === undefined ? 'attribute_exists(pk) AND ' : '';
  for (let round = 0; pending.length > 0; round++) {
    const counters = Object.entries(sum(pending));
    const last = pending[pending.length - 1]!;
    const mark = `${paddedSequence(last.sequenceNumber)}|${Math.floor(settings.now.getTime() / 1000)}`;
    try {
      const { Attributes } = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: item.key,
          UpdateExpression:
            (item.createAs === undefined ? 'SET #wm = :mark' : 'SET entity = :entity, #wm = :mark') +
            (counters.length ? ' ADD ' + counters.map((_, i) => `#c${i} :d${i}`).join(', ') : ''),
          ConditionExpression:
            mustExist + (current === undefined ? '(attribute_not_exists(#wm) OR #wm < :first)' : '#wm = :current'),
          ExpressionAttributeNames: {
            '#wm': watermark,
            ...Object.fromEntries(counters.map(([name], i) => [`#c${i}`, name])),
          },
          ExpressionAttributeValues: {
            ...(item.createAs === undefined ? {} : { ':entity': item.createAs }),
            ':mark': mark,
            ...(current === undefined
              ? { ':first': paddedSequence(pending[0]!.sequenceNumber) }
              : { ':current': current }),
            ...Object.fromEntries(counters.map(([, delta], i) => [`:d${i}`, delta])),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      await pruneWatermarks(item.key, Attributes ?? {}, settings);
      return pending.length;
    } catch (error) {
      if (!isConditionFailure(error) || round >= 5) throw error;
      const found = refusedItem(error);
      if (!found && mustExist) return 'item_missing';
      const seen = stringOf(found?.[watermark]);
      // Refused although the watermark is gone (pruned meanwhile): try again from the top.
      current = seen;
      if (seen === undefined) continue;
      const counted = seen.slice(0, seen.indexOf('|'));
      pending = pending.filter((change) => paddedSequence(change.sequenceNumber) > counted);
    }
  }
  return 0;
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
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'REMOVE ' + stale.map((_, i) => `#w${i}`).join(', '),
        // Only if none of them moved meanwhile.
        ConditionExpression: stale.map((_, i) => `#w${i} = :w${i}`).join(' AND '),
        ExpressionAttributeNames: Object.fromEntries(stale.map(([name], i) => [`#w${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(stale.map(([, value], i) => [`:w${i}`, value])),
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
