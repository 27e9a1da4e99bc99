/**
 * The workspace totals, folded from the table stream: every delivery write records the status it
 * left (`prev_status`: null when it created the delivery, equal to `status` when the status did
 * not change), so each stream record (NEW_IMAGE) carries its exact change to the counters. A batch
 * of one shard becomes one conditional UpdateItem per workspace (store/webhook-totals.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { DeliveryStatus } from '../domain/webhooks.js';
import { logger } from '../logger.js';
import { entities } from '../store/entities.js';
import { foldTotals, type CountedChange, type TotalsDelta } from '../store/webhook-totals.js';
import { forEachLimit } from './bounded.js';
import type { StreamAttribute } from './stream-image.js';

/** The change one stream record makes to its workspace's totals, or undefined for none. */
export function totalsChangeOf(record: DynamoDBRecord): { workspaceId: string; change: CountedChange } | undefined {
  const image = record.dynamodb?.NewImage as Record<string, StreamAttribute> | undefined;
  if (
    (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') ||
    image?.entity?.S !== entities.webhookDelivery.entity
  )
    return undefined;
  const previous = image.prev_status;
  const status = image.status?.S as DeliveryStatus | undefined;
  const workspaceId = image.workspace_id?.S;
  if (!previous || !status || !workspaceId || previous.S === status) return undefined;
  const delta: TotalsDelta = previous.NULL
    ? { total: 1, [status]: 1 }
    : { [previous.S as DeliveryStatus]: -1, [status]: 1 };
  return { workspaceId, change: { sequenceNumber: record.dynamodb!.SequenceNumber!, delta } };
}

/** Workspaces of one batch folded at once. */
const WORKSPACES_AT_ONCE = 4;

/**
 * Folds the delivery records of one shard's batch into their workspaces' totals. Returns the
 * sequence numbers of the records of workspaces whose fold failed (to be retried from there).
 */
export async function foldDeliveryTotals(
  records: readonly DynamoDBRecord[],
  shardId: string,
  now = new Date(),
): Promise<string[]> {
  const byWorkspace = new Map<string, CountedChange[]>();
  for (const record of records) {
    const counted = totalsChangeOf(record);
    if (!counted) continue;
    byWorkspace.set(counted.workspaceId, [...(byWorkspace.get(counted.workspaceId) ?? []), counted.change]);
  }
  const failed: string[] = [];
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
