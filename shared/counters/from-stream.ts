/**
 * The counts the whole network writes at once, folded from the table stream: a post's
 * likes_count and quotes_count, a comment's reactions_count, a profile's followers_count. Each
 * like, follow and published quote is an item of its own (a quote's is its quote mark), put once
 * when made (INSERT) and deleted when undone (REMOVE), so
 * a stream record's keys alone name the counter and the sign (a REMOVE carries no image). One
 * shard's batch becomes one conditional UpdateItem per counter item, each record counted exactly
 * once (store/counter-fold.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { logger } from '../logger.js';
import { consumeStream } from '../pipeline/stream-consumer.js';
import { keyId } from '../store/batch.js';
import { foldCounters, type CountedChange, type CounterItem } from '../store/counter-fold.js';
import type { FoldSettings } from '../store/shard-watermarks.js';
import { followerCounter } from '../store/follows.js';
import { keyParts } from '../store/keys.js';
import { quoteCounter } from '../store/posts.js';
import { reactionCounter } from '../store/reactions.js';

/**
 * The deployed fold's event source discards records older than this (Lambda's MaximumRecordAge,
 * infra/counters.ts): after an hour no record is delivered again, so a shard's watermark need not
 * outlive its last fold by more than that. Watermarks sit on the counted items (a popular post
 * carries one per stream shard its likes came through), so they are kept no longer than needed.
 */
export const COUNTS_RECORD_MAX_AGE_SECONDS = 3600;
/** The deployed fold's watermark keep: the record age bound and an hour's margin for clocks. */
export const COUNTS_WATERMARK_KEEP_SECONDS = COUNTS_RECORD_MAX_AGE_SECONDS + 3600;

/** The counter an item of this key counts into, if it is a like, a follow or a quote. */
function counterOf(key: { pk: string; sk: string }) {
  const reaction = keyParts.reaction(key);
  if (reaction) return reactionCounter(reaction);
  const follow = keyParts.follow(key);
  if (follow) return followerCounter(follow);
  const quote = keyParts.quote(key);
  return quote ? quoteCounter(quote) : undefined;
}

/** The counter a record moves and by how much, or undefined when it moves none. */
export function countedChangeOf(record: DynamoDBRecord): { item: CounterItem; change: CountedChange } | undefined {
  const sign = record.eventName === 'INSERT' ? 1 : record.eventName === 'REMOVE' ? -1 : 0;
  const pk = record.dynamodb?.Keys?.pk?.S;
  const sk = record.dynamodb?.Keys?.sk?.S;
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  if (sign === 0 || !pk || !sk || !sequenceNumber) return undefined;
  const target = counterOf({ pk, sk });
  if (!target) return undefined;
  return { item: target.item, change: { sequenceNumber, delta: { [target.counter]: sign } } };
}

/** Counter items of one batch folded at once. */
const ITEMS_AT_ONCE = 8;

/**
 * Folds the like, follow and quote records of one shard's batch into their counters, one lane per
 * counter item. Returns the sequence numbers of the records whose fold failed (to be retried from
 * there); other records of the batch are ignored.
 */
export async function foldCounts(
  records: readonly DynamoDBRecord[],
  shardId: string,
  settings: FoldSettings,
): Promise<string[]> {
  return consumeStream(records, {
    records: 'counted record',
    failure: 'counter fold failed',
    select: (record) => {
      const counted = countedChangeOf(record);
      return counted && { ok: true, record: counted };
    },
    laneOf: (counted) => keyId(counted.item.key),
    concurrency: ITEMS_AT_ONCE,
    fold: async (lane) => {
      const { item } = lane[0]!;
      const counted = await foldCounters(
        item,
        shardId,
        lane.map((c) => c.change),
        settings,
      );
      // A like of a post or comment that does not exist: the handlers read the target before writing, so only a bug gets here.
      if (counted === 'item_missing') logger.warn('counted item missing', { pk: item.key.pk, sk: item.key.sk });
    },
    describe: (counted) => ({ pk: counted.item.key.pk, sk: counted.item.key.sk }),
  });
}
