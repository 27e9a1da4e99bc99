/**
 * The workspace totals, folded from the table stream: every delivery write records the status it
 * left (`prev_status`: null when it created the delivery, equal to `status` when the status did
 * not change), so each stream record (NEW_IMAGE) carries its exact change to the counters. A batch
 * of one shard becomes one conditional UpdateItem per workspace (store/counter-fold.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { DeliveryStatus } from '../domain/webhooks.js';
import { consumeStream } from '../pipeline/stream-consumer.js';
import { decodeImage, type Decoded } from '../pipeline/decode.js';
import { entities } from '../store/entities.js';
import type { CountedChange, CounterDelta } from '../store/counter-fold.js';
import { foldTotals } from '../store/webhook-totals.js';

/** What a delivery write's image tells the totals: the workspace, the status the write left and the one it set. */
const DeliveryWriteImage = z.object({
  workspace_id: z.string(),
  status: DeliveryStatus,
  prev_status: z.nullable(DeliveryStatus),
});

/** A write of a delivery record: the stream records the totals are folded from. */
export const isDeliveryWrite = (record: DynamoDBRecord): boolean =>
  (record.eventName === 'INSERT' || record.eventName === 'MODIFY') &&
  record.dynamodb?.NewImage?.entity?.S === entities.webhookDelivery.entity;

/** A delivery write's change to its workspace's totals. */
interface TotalsChange {
  workspaceId: string;
  change: CountedChange;
}

/** The change a delivery write makes to its workspace's totals (a zero delta when it kept the status). */
function totalsChangeOf(record: DynamoDBRecord): Decoded<TotalsChange> {
  const read = decodeImage(DeliveryWriteImage, record.dynamodb?.NewImage);
  if (!read.ok) return read;
  const { workspace_id: workspaceId, status, prev_status: previous } = read.record;
  const delta: CounterDelta =
    previous === null ? { total: 1, [status]: 1 } : previous === status ? {} : { [previous]: -1, [status]: 1 };
  return { ok: true, record: { workspaceId, change: { sequenceNumber: record.dynamodb!.SequenceNumber!, delta } } };
}

/** Workspaces of one batch folded at once. */
const WORKSPACES_AT_ONCE = 4;

/**
 * Folds the delivery records of one shard's batch into their workspaces' totals, one lane per
 * workspace. Returns the sequence numbers of the records of workspaces whose fold failed (to be
 * retried from there), and of records whose image is not a delivery write's (logged).
 */
export async function foldDeliveryTotals(
  records: readonly DynamoDBRecord[],
  shardId: string,
  now = new Date(),
): Promise<string[]> {
  return consumeStream<TotalsChange>(records, {
    records: 'delivery record',
    failure: 'webhook totals fold failed',
    select: (record) => {
      if (!isDeliveryWrite(record)) return undefined;
      const counted = totalsChangeOf(record);
      return counted.ok && Object.keys(counted.record.change.delta).length === 0 ? undefined : counted;
    },
    laneOf: (counted) => counted.workspaceId,
    concurrency: WORKSPACES_AT_ONCE,
    fold: (lane) =>
      foldTotals(
        lane[0]!.workspaceId,
        shardId,
        lane.map((counted) => counted.change),
        now,
      ),
    describe: (counted) => ({ workspace_id: counted.workspaceId }),
  });
}
