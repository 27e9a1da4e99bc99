import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { fanOutHandler } from '../../functions/webhook-pipeline/handlers.js';
import { deliveryIdFor, newWebhookEndpoint } from '../../shared/domain/webhooks.js';
import type { DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { createEndpoint, listWorkspaceEndpoints } from '../../shared/store/webhook-endpoints.js';

/** A stream record of an outbox INSERT, as the event source hands it to the fan-out. */
function streamRecord(sequence: string, workspaceId: string, profileId: string): DynamoDBRecord {
  return {
    eventName: 'INSERT',
    dynamodb: {
      SequenceNumber: sequence,
      NewImage: {
        entity: { S: 'event' },
        id: { S: randomUUID() },
        type: { S: 'profile.followed' },
        profile_id: { S: profileId },
        workspace_id: { S: workspaceId },
        created_at: { S: new Date().toISOString() },
        data: { M: {} },
      },
    },
  };
}

async function workspaceWithEndpoints(count: number) {
  const workspaceId = randomUUID();
  const profileId = randomUUID();
  for (let i = 0; i < count; i++) {
    const endpoint = newWebhookEndpoint(new Date(), workspaceId, {
      name: `e${i}`,
      url: 'https://example.com/hooks',
      event_types: ['profile.followed'],
      profile_ids: [profileId],
    });
    expect(await createEndpoint(endpoint, 20)).toBe('created');
  }
  return { workspaceId, profileId };
}

describe('fan-out of one stream batch, split by workspace', () => {
  it('a workspace whose fan-out keeps failing is reported alone; the other workspaces in the batch are fanned out, in order', async () => {
    const broken = await workspaceWithEndpoints(3);
    const fine = await workspaceWithEndpoints(5);
    const brokenEndpoints = new Set<string>();
    const enqueued: DeliveryMessage[] = [];
    let inFlight = 0;
    let most = 0;
    // The broken workspace's deliveries fail at enqueue (as a throttled queue would).
    const queue = {
      async enqueue(message: DeliveryMessage) {
        if (brokenEndpoints.has(message.delivery_id)) throw new Error('queue refuses this workspace');
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight -= 1;
        enqueued.push(message);
      },
    };
    const handler = fanOutHandler({ queue }, { concurrency: 2 });
    const failing = broken;
    const batch = [
      streamRecord('100', fine.workspaceId, fine.profileId),
      streamRecord('200', failing.workspaceId, failing.profileId),
      streamRecord('300', fine.workspaceId, fine.profileId),
      streamRecord('400', failing.workspaceId, failing.profileId),
    ];
    // Every delivery of the broken workspace's events fails to enqueue.
    for (const record of batch.filter((r) => r.dynamodb!.NewImage!.workspace_id!.S === failing.workspaceId)) {
      for (const endpoint of await listWorkspaceEndpoints(failing.workspaceId))
        brokenEndpoints.add(deliveryIdFor(record.dynamodb!.NewImage!.id!.S!, endpoint.id));
    }

    const response = await handler({ Records: batch });
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '200' }]);
    // Both events of the healthy workspace reached its 5 endpoints, at most 2 at a time.
    expect(enqueued).toHaveLength(10);
    expect(new Set(enqueued.map((m) => m.delivery_id)).size).toBe(10);
    expect(most).toBeLessThanOrEqual(2);
    expect(enqueued.some((m) => brokenEndpoints.has(m.delivery_id))).toBe(false);
  }, 30_000);
});
