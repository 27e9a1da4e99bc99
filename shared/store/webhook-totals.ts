/**
 * The workspace totals as the table stream folds them: one counter item per workspace, written
 * only by the stream consumer, one UpdateItem per workspace per stream batch. Exactly once: the
 * item keeps, per stream shard, the sequence number of the last record it counted (the
 * watermark), and the update is conditioned on it, so a batch delivered again (a retry, an
 * overlap after a partial failure) counts only the records after it.
 *
 * A watermark is `<sequence number, zero-padded>|<epoch seconds it was written>`: the padding makes
 * string order sequence order, the time lets shards whose records the stream has trimmed (24 h)
 * be pruned so the item stays small.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookTotals } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { entityTags, keys } from './keys.js';
import { isConditionFailure } from './transact.js';

export type TotalsDelta = Partial<Record<keyof WebhookTotals, number>>;

/** One stream record's change to the totals. */
export interface CountedChange {
  sequenceNumber: string;
  delta: TotalsDelta;
}

/** DynamoDB Streams sequence numbers are 21 to 40 digits. */
const SEQUENCE_DIGITS = 40;
const paddedSequence = (sequenceNumber: string) => sequenceNumber.padStart(SEQUENCE_DIGITS, '0');

/** The stream keeps records 24 h; an hour's margin for clocks and in-flight retries. */
export const WATERMARK_KEEP_SECONDS = 25 * 3600;
const WATERMARK_PREFIX = 'wm_';
const watermarkAttribute = (shardId: string) => `${WATERMARK_PREFIX}${shardId}`;

const sum = (changes: readonly CountedChange[]): TotalsDelta => {
  const total: TotalsDelta = {};
  for (const { delta } of changes) {
    for (const [counter, value] of Object.entries(delta) as [keyof WebhookTotals, number][])
      total[counter] = (total[counter] ?? 0) + value;
  }
  return Object.fromEntries(Object.entries(total).filter(([, value]) => value !== 0));
};

/** The workspace's delivery counters (one consistent read); they lag the deliveries by one stream batch. */
export async function getTotals(workspaceId: string): Promise<WebhookTotals> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookTotals(workspaceId), ConsistentRead: true }),
  );
  const count = (counter: keyof WebhookTotals) => Number(Item?.[counter] ?? 0);
  return {
    total: count('total'),
    succeeded: count('succeeded'),
    failed: count('failed'),
    pending: count('pending'),
    delivering: count('delivering'),
  };
}

type RawAttribute = string | { S?: string } | undefined;
const stringOf = (value: RawAttribute) => (typeof value === 'string' ? value : value?.S);

/**
 * Adds the changes of one shard's batch (in sequence order) to the workspace's totals, each
 * exactly once. Returns how many were counted now (the others had been counted before).
 */
export async function foldTotals(
  workspaceId: string,
  shardId: string,
  changes: readonly CountedChange[],
  now: Date,
): Promise<number> {
  const watermark = watermarkAttribute(shardId);
  let pending = [...changes].sort((a, b) =>
    paddedSequence(a.sequenceNumber) < paddedSequence(b.sequenceNumber) ? -1 : 1,
  );
  // Unknown at first: the common case is a batch after the watermark. Known after a refusal.
  let current: string | undefined;
  for (let round = 0; pending.length > 0; round++) {
    const counters = Object.entries(sum(pending));
    const last = pending[pending.length - 1]!;
    const mark = `${paddedSequence(last.sequenceNumber)}|${Math.floor(now.getTime() / 1000)}`;
    try {
      const { Attributes } = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.webhookTotals(workspaceId),
          UpdateExpression:
            'SET entity = :entity, #wm = :mark' +
            (counters.length ? ' ADD ' + counters.map((_, i) => `#c${i} :d${i}`).join(', ') : ''),
          ConditionExpression: current === undefined ? 'attribute_not_exists(#wm) OR #wm < :first' : '#wm = :current',
          ExpressionAttributeNames: {
            '#wm': watermark,
            ...Object.fromEntries(counters.map(([name], i) => [`#c${i}`, name])),
          },
          ExpressionAttributeValues: {
            ':entity': entityTags.webhookTotals,
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
      await pruneWatermarks(workspaceId, Attributes ?? {}, now);
      return pending.length;
    } catch (error) {
      if (!isConditionFailure(error) || round >= 5) throw error;
      const item = (error as { Item?: Record<string, RawAttribute> }).Item ?? {};
      const seen = stringOf(item[watermark]);
      // Refused although the watermark is gone (pruned meanwhile): try again from the top.
      current = seen;
      if (seen === undefined) continue;
      const counted = seen.slice(0, seen.indexOf('|'));
      pending = pending.filter((change) => paddedSequence(change.sequenceNumber) > counted);
    }
  }
  return 0;
}

/** Removes the watermarks of shards not folded for longer than the stream keeps records (rare: a few a day). */
async function pruneWatermarks(workspaceId: string, item: Record<string, unknown>, now: Date): Promise<void> {
  const oldest = Math.floor(now.getTime() / 1000) - WATERMARK_KEEP_SECONDS;
  const stale = Object.entries(item).filter(
    ([name, value]) =>
      name.startsWith(WATERMARK_PREFIX) &&
      typeof value === 'string' &&
      Number(value.slice(value.indexOf('|') + 1)) < oldest,
  ) as [string, string][];
  if (stale.length === 0) return;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookTotals(workspaceId),
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
