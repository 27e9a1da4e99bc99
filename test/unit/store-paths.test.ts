import { describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../shared/domain/webhooks.js';
import { newPost } from '../../shared/domain/posts.js';
import { deliveryIndexes, deliverySlotOf, entities } from '../../shared/store/entities.js';
import { when } from '../../shared/store/expressions.js';
import { entityLayout, indexAttributes, indexChanges, itemOf } from '../../shared/store/items.js';
import { keys, timeSortKey } from '../../shared/store/keys.js';
import { pathQuery } from '../../shared/store/paths.js';
import { bySession } from '../support/disclosure.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const at = now.toISOString();
const author = { id: '11111111-1111-4111-8111-111111111111', workspace_id: '22222222-2222-4222-8222-222222222222' };

describe('an entity layout declares its access paths', () => {
  it('places a record on each index path it is on, from the same declaration the queries read', () => {
    const profile = { id: 'p1', workspace_id: 'w1', created_at: at } as Parameters<typeof entities.profile.key>[0];
    expect(indexAttributes(entities.profile, profile)).toEqual({
      gsi1pk: keys.workspaceProfiles('w1'),
      gsi1sk: timeSortKey(at, 'p1'),
    });
    expect(pathQuery(entities.profile, 'byWorkspace', { workspace_id: 'w1' }).partition).toEqual({
      gsi1pk: keys.workspaceProfiles('w1'),
    });
  });

  it('keeps a record off a path while its sort key or parameters say it is not on it', () => {
    const quoted = newPost(now, author, { body: 'original', images: [], status: 'published' }, bySession);
    const draftQuote = newPost(now, author, { body: 'q', images: [], status: 'draft' }, bySession, { quoted });
    expect(indexAttributes(entities.post, quoted)).toEqual({
      gsi1pk: keys.profilePosts(author.id),
      gsi1sk: timeSortKey(at, quoted.id),
    });
    // A draft quote is on its author's drafts only: neither the author's posts nor the quoted post's quotes.
    expect(indexAttributes(entities.post, draftQuote)).toEqual({
      gsi1pk: keys.profileDrafts(author.id),
      gsi1sk: timeSortKey(draftQuote.created_at, draftQuote.id),
    });
    // A removed post comes off every index its paths use.
    expect(indexChanges(entities.post, { ...quoted, status: 'removed' })).toEqual({
      set: {},
      remove: ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'],
    });
  });

  it('refuses a declaration that puts one record on two paths of one index', () => {
    const clash = entityLayout<{ id: string; a: string }>()({
      entity: 'clash',
      key: (r) => ({ pk: r.id, sk: 'X' }),
      paths: {
        one: { index: 'gsi1', partition: (r: { a: string }) => r.a, sort: (r) => r.id },
        two: { index: 'gsi1', partition: (r: { id: string }) => r.id, sort: (r) => r.a },
      },
    });
    expect(() => itemOf(clash, { id: 'i', a: 'a' })).toThrow(/Two access paths place one item on gsi1/);
  });

  it('types a path by its declaration: its name and its parameters', () => {
    const ok = () => pathQuery(entities.follow, 'followedBy', { follower_profile_id: 'p' });
    // @ts-expect-error: no such path
    const unknownPath = () => pathQuery(entities.follow, 'byWorkspace', { workspace_id: 'w' });
    // @ts-expect-error: the path's partition is named by the followed profile
    const wrongParams = () => pathQuery(entities.follow, 'followersOf', { follower_profile_id: 'p' });
    entityLayout<{ id: string; a: string }>()({
      entity: 'bad',
      key: (r) => ({ pk: r.id, sk: 'X' }),
      paths: {
        // @ts-expect-error: a partition the record's own fields cannot name needs `params`
        byB: { index: 'gsi1', partition: (r: { b: string }) => r.b, sort: (r) => r.id },
      },
    });
    expect([ok, unknownPath, wrongParams].every((f) => typeof f === 'function')).toBe(true);
  });
});

describe('a path query', () => {
  it('names the index and the partition, newest first when asked, with a sort range and a filter', () => {
    const query = pathQuery(
      entities.post,
      'byAuthor',
      { profile_id: 'a1' },
      { order: 'newest_first', range: { below: 'x' }, filter: when.is('kind', 'post'), pageSize: 10 },
    );
    expect(query).toEqual({
      input: {
        IndexName: 'gsi1',
        KeyConditionExpression: '#n0 = :v0 AND #n1 < :v1',
        FilterExpression: '#n2 = :v2',
        ExpressionAttributeNames: { '#n0': 'gsi1pk', '#n1': 'gsi1sk', '#n2': 'kind' },
        ExpressionAttributeValues: { ':v0': keys.profilePosts('a1'), ':v1': 'x', ':v2': 'post' },
        ScanIndexForward: false,
        Limit: 10,
      },
      partition: { gsi1pk: keys.profilePosts('a1') },
      partitionAttribute: 'gsi1pk',
      sortAttribute: 'gsi1sk',
    });
  });

  it('reads a table path on the table keys, within its sort prefix, consistently when asked', () => {
    const query = pathQuery(
      entities.message,
      'conversation',
      { sender_profile_id: 'b', recipient_profile_id: 'a' },
      { consistent: true },
    );
    expect(query.input).toEqual({
      KeyConditionExpression: '#n0 = :v0 AND begins_with(#n1, :v1)',
      ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk' },
      ExpressionAttributeValues: { ':v0': keys.conversation('a', 'b'), ':v1': keys.messageSortKeyPrefix },
      ScanIndexForward: true,
      ConsistentRead: true,
    });
  });

  it('projects the attributes asked for with the entity tag, and reads a BETWEEN window', () => {
    const query = pathQuery(
      entities.webhookDelivery,
      'failedOf',
      { webhook_endpoint_id: 'e1' },
      { attributes: ['id'], range: { between: ['a', 'b'] } },
    );
    expect(query.input).toMatchObject({
      IndexName: 'gsi2',
      KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2',
      ProjectionExpression: '#n2, #n3',
      ExpressionAttributeNames: { '#n0': 'gsi2pk', '#n1': 'gsi2sk', '#n2': 'id', '#n3': 'entity' },
    });
  });
});

describe('the sweeper and the delivery detail read the delivery paths', () => {
  it("reads a due shard up to a time, and a delivery's partition with its attempts consistently", () => {
    expect(
      pathQuery(entities.webhookDelivery, 'due', { due_shard: keys.webhookDueShards[1] }, { range: { atMost: 't' } })
        .input,
    ).toMatchObject({
      IndexName: 'gsi2',
      KeyConditionExpression: '#n0 = :v0 AND #n1 <= :v1',
      ExpressionAttributeValues: { ':v0': 'WHDUE#1', ':v1': 't' },
    });
    expect(pathQuery(entities.webhookDelivery, 'withAttempts', { id: 'd1' }, { consistent: true }).input).toEqual({
      KeyConditionExpression: '#n0 = :v0',
      ExpressionAttributeNames: { '#n0': 'pk' },
      ExpressionAttributeValues: { ':v0': keys.webhookDeliveryPartition('d1') },
      ScanIndexForward: true,
      ConsistentRead: true,
    });
  });
});

describe("a delivery's paths keep its slots", () => {
  const delivery = {
    id: 'a0000000-0000-4000-8000-000000000000',
    workspace_id: 'w1',
    webhook_endpoint_id: 'e1',
    status: 'pending',
    next_attempt_at: '2026-11-22T10:05:00.000Z',
    claimed_at: null,
    updated_at: at,
  } as DeliveryRecord;
  const activity = { gsi1pk: keys.workspaceWebhookDeliveries('w1'), gsi1sk: timeSortKey(at, delivery.id) };

  it('due: in its sweeper shard by due time', () => {
    const due = {
      gsi2pk: keys.webhookDueShard(delivery.id),
      gsi2sk: timeSortKey('2026-11-22T10:05:00.000Z', delivery.id),
    };
    expect(deliveryIndexes(delivery, { due: '2026-11-22T10:05:00.000Z' })).toEqual({ ...activity, ...due });
    expect(itemOf(entities.webhookDelivery, delivery)).toMatchObject({ ...activity, ...due });
  });

  it("failed: in its endpoint's failed list by last change; succeeded: in activity only", () => {
    const failed = { ...delivery, status: 'failed' as const };
    expect(deliveryIndexes(failed, deliverySlotOf(failed))).toEqual({
      ...activity,
      gsi2pk: keys.endpointFailedDeliveries('e1'),
      gsi2sk: timeSortKey(at, delivery.id),
    });
    expect(deliveryIndexes(delivery, null)).toEqual(activity);
    expect(itemOf(entities.webhookDelivery, { ...delivery, status: 'succeeded' })).not.toHaveProperty('gsi2pk');
  });

  it('a claimed delivery stays at the time it was due', () => {
    const claimed = { ...delivery, status: 'delivering' as const, next_attempt_at: null, claimed_at: at };
    expect(indexAttributes(entities.webhookDelivery, claimed)).toMatchObject({
      gsi2pk: keys.webhookDueShard(delivery.id),
      gsi2sk: timeSortKey(at, delivery.id),
    });
  });
});
