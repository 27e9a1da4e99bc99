import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { fanOutHandler } from '../../functions/webhook-pipeline/handlers.js';
import { newId } from '../../shared/domain/ids.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { getTotals, WATERMARK_KEEP_SECONDS } from '../../shared/store/webhook-totals.js';
import { foldDeliveryTotals } from '../../shared/webhooks/totals-from-stream.js';

const handler = fanOutHandler({ queue: { enqueue: async () => undefined } });
let sequence = 10n ** 20n;

/** A stream record of a delivery write that left `from` (null: the write created it) for `to`. */
function deliveryRecord(
  workspaceId: string,
  from: string | null | undefined,
  to: string,
  entity = 'webhook_delivery',
): DynamoDBRecord {
  sequence += 1n;
  const id = newId();
  return {
    eventName: from === null ? 'INSERT' : 'MODIFY',
    dynamodb: {
      SequenceNumber: String(sequence),
      Keys: { pk: { S: `WHDL#${id}` }, sk: { S: 'WHDL' } },
      NewImage: {
        pk: { S: `WHDL#${id}` },
        sk: { S: 'WHDL' },
        entity: { S: entity },
        id: { S: id },
        workspace_id: { S: workspaceId },
        status: { S: to },
        ...(from === undefined ? {} : { prev_status: from === null ? { NULL: true } : { S: from } }),
      },
    },
  };
}

/** One delivery's life: created, claimed, failed attempt back to pending, claimed again, succeeded. */
const life = (ws: string) => [
  deliveryRecord(ws, null, 'pending'),
  deliveryRecord(ws, 'pending', 'delivering'),
  deliveryRecord(ws, 'delivering', 'pending'),
  deliveryRecord(ws, 'pending', 'pending'),
  deliveryRecord(ws, 'pending', 'delivering'),
  deliveryRecord(ws, 'delivering', 'succeeded'),
];

describe('the workspace totals, folded from the table stream', () => {
  it('counts the same stream batch once when it is delivered twice', async () => {
    const ws = newId();
    const batch = [...life(ws), deliveryRecord(ws, null, 'pending')];
    const shardId = `shardId-${newId()}`;
    expect(await handler({ Records: batch, shardId })).toEqual({ batchItemFailures: [] });
    const once = await getTotals(ws);
    expect(once).toEqual({ total: 2, succeeded: 1, failed: 0, pending: 1, delivering: 0 });
    expect(await handler({ Records: batch, shardId })).toEqual({ batchItemFailures: [] });
    expect(await getTotals(ws)).toEqual(once);
  });

  it('counts an overlapping batch (a retry from a failed record on) only from where the last one ended', async () => {
    const ws = newId();
    const records = [...life(ws), ...life(ws)];
    const shardId = `shardId-${newId()}`;
    await handler({ Records: records.slice(0, 8), shardId });
    await handler({ Records: records.slice(3), shardId });
    expect(await getTotals(ws)).toEqual({ total: 2, succeeded: 2, failed: 0, pending: 0, delivering: 0 });
  });

  it('keeps one watermark per shard: batches of two shards side by side are both counted, each once', async () => {
    const ws = newId();
    const [a, b] = [`shardId-${newId()}`, `shardId-${newId()}`];
    const fromA = life(ws);
    const fromB = [
      deliveryRecord(ws, null, 'pending'),
      deliveryRecord(ws, 'pending', 'delivering'),
      deliveryRecord(ws, 'delivering', 'failed'),
    ];
    // B's sequence numbers are all above A's: a single watermark would drop A's second batch.
    await Promise.all([handler({ Records: fromB, shardId: b }), handler({ Records: fromA.slice(0, 2), shardId: a })]);
    await handler({ Records: fromA.slice(2), shardId: a });
    await handler({ Records: fromB, shardId: b });
    expect(await getTotals(ws)).toEqual({ total: 2, succeeded: 1, failed: 1, pending: 0, delivering: 0 });
  });

  it('ignores writes that keep the status, and other entities', async () => {
    const ws = newId();
    const shardId = `shardId-${newId()}`;
    await handler({
      Records: [deliveryRecord(ws, 'pending', 'pending'), deliveryRecord(ws, null, 'pending', 'webhook_attempt')],
      shardId,
    });
    expect(await getTotals(ws)).toEqual({ total: 0, succeeded: 0, failed: 0, pending: 0, delivering: 0 });
  });

  it('reports a delivery record whose image lacks the status it left, and counts the rest of the batch', async () => {
    const ws = newId();
    const shardId = `shardId-${newId()}`;
    const malformed = deliveryRecord(ws, undefined, 'succeeded');
    const response = await handler({
      Records: [deliveryRecord(ws, null, 'pending'), malformed, deliveryRecord(ws, 'pending', 'delivering')],
      shardId,
    });
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: malformed.dynamodb!.SequenceNumber }]);
    expect(await getTotals(ws)).toEqual({ total: 1, succeeded: 0, failed: 0, pending: 0, delivering: 1 });
  });

  it('drops the watermarks of shards the stream no longer holds, keeping the counts', async () => {
    const ws = newId();
    const [old, current] = [`shardId-${newId()}`, `shardId-${newId()}`];
    const then = new Date(Date.now() - (WATERMARK_KEEP_SECONDS + 60) * 1000);
    expect(await foldDeliveryTotals([deliveryRecord(ws, null, 'pending')], old, then)).toEqual([]);
    await foldDeliveryTotals([deliveryRecord(ws, null, 'pending')], current);
    const item = (
      await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookTotals(ws), ConsistentRead: true }))
    ).Item!;
    expect(item).not.toHaveProperty(`wm_${old}`);
    expect(item).toHaveProperty(`wm_${current}`);
    expect(await getTotals(ws)).toMatchObject({ total: 2, pending: 2 });
  });

  it('refuses delivery records on an event that does not name its shard', async () => {
    await expect(handler({ Records: [deliveryRecord(newId(), null, 'pending')] })).rejects.toThrow(/shardId/);
  });
});
