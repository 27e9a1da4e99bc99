import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import {
  activity,
  activityWithTotals,
  createEndpoint,
  deliveryDetail,
  emitEvent,
  waitFor,
  waitForDelivery,
  workspaceWithProfiles,
} from '../support/webhooks.js';

const receivers: Receiver[] = [];
const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
};
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

describe('webhook deliveries (signed, selected, recorded)', () => {
  it('delivers a matching event once, signed per Standard Webhooks, and records it as succeeded', async () => {
    const ws = await workspaceWithProfiles(1);
    const r = await receiver();
    const { secret, webhook_endpoint } = await createEndpoint(ws, { url: r.url });
    r.secrets.push(secret);
    const eventId = await emitEvent(ws);

    const delivered = await waitForDelivery(ws, eventId, 'succeeded');
    expect(r.received).toHaveLength(1);
    const request = r.received[0]!;
    expect(request.verified).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toBe(delivered.id);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({ id: eventId, type: 'profile.followed', profile_id: ws.profiles[0]!.id });
    expect(body).not.toHaveProperty('workspace_id');
    expect(delivered).toMatchObject({
      webhook_endpoint_id: webhook_endpoint.id,
      webhook_endpoint_name: 'Test receiver',
      event_type: 'profile.followed',
      profile_id: ws.profiles[0]!.id,
      attempt_count: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivered.delivered_at).toEqual(expect.any(String));
    const detail = await deliveryDetail(ws, delivered.id);
    expect(detail.attempts).toEqual([
      {
        number: 1,
        started_at: expect.any(String),
        duration_ms: expect.any(Number),
        status_code: 200,
        error: null,
        response_body: 'ok',
      },
    ]);
  });

  it('sends the same body id to every matching endpoint with a different webhook-id each', async () => {
    const ws = await workspaceWithProfiles(1);
    const a = await receiver();
    const b = await receiver();
    a.secrets.push((await createEndpoint(ws, { url: a.url, name: 'A' })).secret);
    b.secrets.push((await createEndpoint(ws, { url: b.url, name: 'B' })).secret);
    const eventId = await emitEvent(ws);
    await waitFor('both receivers', () => (a.received.length === 1 && b.received.length === 1 ? true : undefined));
    expect(a.received[0]!.verified && b.received[0]!.verified).toBe(true);
    expect(JSON.parse(a.received[0]!.body).id).toBe(eventId);
    expect(JSON.parse(b.received[0]!.body).id).toBe(eventId);
    expect(a.received[0]!.headers['webhook-id']).not.toBe(b.received[0]!.headers['webhook-id']);
    // Each endpoint's signature is made with its own secret only.
    expect(a.received[0]!.body).toBe(b.received[0]!.body);
  });

  it('delivers only events of selected profiles and types, and never to another workspace', async () => {
    const ws = await workspaceWithProfiles(2);
    const other = await workspaceWithProfiles(1);
    const r = await receiver();
    const foreign = await receiver();
    r.secrets.push(
      (await createEndpoint(ws, { url: r.url, event_types: ['profile.followed'], profile_ids: [ws.profiles[0]!.id] }))
        .secret,
    );
    // Another workspace's endpoint selecting everything of its own profile.
    await createEndpoint(other, {
      url: foreign.url,
      event_types: ['profile.followed', 'message.created'],
      profile_ids: [other.profiles[0]!.id],
    });

    const unselectedProfile = await emitEvent(ws, { profileId: ws.profiles[1]!.id });
    const unselectedType = await emitEvent(ws, { type: 'message.created' });
    const matching = await emitEvent(ws);
    await waitForDelivery(ws, matching, 'succeeded');

    const ids = r.received.map((req) => JSON.parse(req.body).id);
    expect(ids).toEqual([matching]);
    expect(ids).not.toContain(unselectedProfile);
    expect(ids).not.toContain(unselectedType);
    const { items, totals } = await activityWithTotals(ws, { total: 1, succeeded: 1 });
    expect(items.map((d) => d.webhook_event_id)).toEqual([matching]);
    expect(totals).toMatchObject({ total: 1, succeeded: 1 });
    expect(foreign.received).toHaveLength(0);
    expect((await activity(other)).items).toHaveLength(0);
  });

  it('answers the test action with a webhook.test event to that endpoint only', async () => {
    const ws = await workspaceWithProfiles(1);
    const target = await receiver();
    const sibling = await receiver();
    const created = await createEndpoint(ws, { url: target.url });
    target.secrets.push(created.secret);
    await createEndpoint(ws, { url: sibling.url });
    const { call } = await import('../support/api.js');
    const response = await call(
      'POST',
      `/v1/workspaces/${ws.workspace.id}/webhook-endpoints/${created.webhook_endpoint.id}/test`,
      { token: ws.token },
    );
    expect(response.status).toBe(200);
    const { webhook_event_id, webhook_delivery_id } = response.body.data;
    await waitForDelivery(ws, webhook_event_id, 'succeeded');
    expect(target.received).toHaveLength(1);
    expect(target.received[0]!.verified).toBe(true);
    expect(target.received[0]!.headers['webhook-id']).toBe(webhook_delivery_id);
    expect(JSON.parse(target.received[0]!.body)).toMatchObject({ id: webhook_event_id, type: 'webhook.test' });
    expect(sibling.received).toHaveLength(0);
  });

  it('delivers events whose data is or holds an empty object', async () => {
    const ws = await workspaceWithProfiles(1);
    const r = await receiver();
    r.secrets.push((await createEndpoint(ws, { url: r.url })).secret);
    const empty = await emitEvent(ws, { data: {} });
    const nested = await emitEvent(ws, { data: { follower: {}, tags: [] } });
    await waitForDelivery(ws, empty, 'succeeded');
    await waitForDelivery(ws, nested, 'succeeded');
    const bodies = new Map(r.received.map((request) => [JSON.parse(request.body).id, JSON.parse(request.body)]));
    expect(bodies.get(empty).data).toEqual({});
    expect(bodies.get(nested).data).toEqual({ follower: {}, tags: [] });
    expect(r.received.every((request) => request.verified)).toBe(true);
  });

  // The HTTP function puts the delivery on the queue it is given: here the local runtime's, also
  // when the function runs from its Lambda bundle (npm run test:bundles).
  it('sends a failed delivery again on a manual retry, with the same webhook-id and body', async () => {
    const ws = await workspaceWithProfiles(1);
    const r = await receiver((n) => (n === 1 ? 410 : 200));
    const { secret, webhook_endpoint } = await createEndpoint(ws, { url: r.url });
    r.secrets.push(secret);
    const eventId = await emitEvent(ws);
    const failed = await waitForDelivery(ws, eventId, 'failed');
    const { call } = await import('../support/api.js');
    const workspacePath = `/v1/workspaces/${ws.workspace.id}`;
    const enabled = await call('POST', `${workspacePath}/webhook-endpoints/${webhook_endpoint.id}/enable`, {
      token: ws.token,
    });
    expect(enabled.status).toBe(200);

    const retried = await call('POST', `${workspacePath}/webhook-deliveries/${failed.id}/retry`, { token: ws.token });
    expect(retried.status).toBe(200);
    expect(retried.body.data.delivery).toMatchObject({ id: failed.id, status: 'pending' });
    const delivered = await waitForDelivery(ws, eventId, 'succeeded');
    expect(delivered.attempt_count).toBe(2);
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.verified).toBe(true);
    expect(r.received[1]!.headers['webhook-id']).toBe(failed.id);
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
  });
});
