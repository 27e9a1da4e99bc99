/**
 * The workspace totals as the table stream folds them: one counter item per workspace, written
 * only by the stream consumer, one UpdateItem per workspace per stream batch, exactly once per
 * stream shard (counter-fold.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookTotals } from '../domain/webhooks.js';
import { db, tableName } from './client.js';
import { foldCounters, type CountedChange } from './counter-fold.js';
import { WHOLE_STREAM_KEEP_SECONDS } from './shard-watermarks.js';
import { entityTags, keys } from './keys.js';

/**
 * The fan-out's event source retries a batch for as long as the stream keeps its records, so a
 * shard's watermark is kept that long after its last fold.
 */
export const WATERMARK_KEEP_SECONDS = WHOLE_STREAM_KEEP_SECONDS;

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
  const counted = await foldCounters(
    { key: keys.webhookTotals(workspaceId), createAs: entityTags.webhookTotals },
    shardId,
    changes,
    { now, keepSeconds: WATERMARK_KEEP_SECONDS },
  );
  // An item the fold creates is never missing.
  return counted === 'item_missing' ? 0 : counted;
}
