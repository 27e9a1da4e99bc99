/**
 * The workspace totals, folded from the table stream: every delivery write records the status it
 * left (`prev_status`: null when it created the delivery, equal to `status` when the status did
 * not change), so each stream record (NEW_IMAGE) carries its exact change to the counters. A batch
 * of one shard becomes one conditional UpdateItem per workspace (store/counter-fold.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { DeliveryStatus } from '../domain/webhooks.js';
import { logger } from '../logger.js';
import { entities } from '../store/entities.js';
import type { CountedChange, CounterDelta } from '../store/counter-fold.js';
import { foldTotals } from '../store/webhook-totals.js';
import { forEachLimit } from './bounded.js';
import { readImage } from './stream-image.js';

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

/** The change a delivery write makes to its workspace's totals (a zero delta when it kept the status). */
function totalsChangeOf(
  record: DynamoDBRecord,
): { ok: true; workspaceId: string; change: CountedChange } | { ok: false; reason: string } {
  const read = readImage(DeliveryWriteImage, record.dynamodb!.NewImage!);
  if (!read.ok) return read;
  const { workspace_id: workspaceId, status, prev_status: previous } = read.record;
  const delta: CounterDelta =
    previous === null ? { total: 1, [status]: 1 } : previous === status ? {} : { [previous]: -1, [status]: 1 };
  return { ok: true, workspaceId, change: { sequenceNumber: record.dynamodb!.SequenceNumber!, delta } };
}

/** Workspaces of one batch folded at once. */
const WORKSPACES_AT_ONCE = 4;

/**
 * Folds the delivery records of one shard's batch into their workspaces' totals. Returns the
 * sequence numbers of the records of workspaces whose fold failed (to be retried from there), and
 * of records whose image is not a delivery write's (logged).
 */
export async function foldDeliveryTotals(
  records: readonly DynamoDBRecord[],
  shardId: string,
  now = new Date(),
): Promise<string[]> {
  const byWorkspace = new Map<string, CountedChange[]>();
  const failed: string[] = [];
  for (const record of records.filter(isDeliveryWrite)) {
    const counted = totalsChangeOf(record);
    if (!counted.ok) {
      const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
      logger.error('malformed delivery record on the stream', {
        sequence_number: sequenceNumber,
        reason: counted.reason,
      });
      failed.push(sequenceNumber);
      continue;
    }
    if (Object.keys(counted.change.delta).length === 0) continue;
    byWorkspace.set(counted.workspaceId, [...(byWorkspace.get(counted.workspaceId) ?? []), counted.change]);
  }
  await forEachLimit([...byWorkspace], WORKSPACES_AT_ONCE, async ([workspaceId, changes]) => {
    try {
      await foldTotals(workspaceId, shardId, changes, now);
    } catch (error) {
      logger.error('webhook totals fold failed', { workspace_id: workspaceId, error: error as Error });
      failed.push(...changes.map((c) => c.sequenceNumber));
    }
  });
  return failed;
}
