import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../support/api.js';
import { receiverPool, type ReceivedRequest, type Responder } from '../support/webhook-receiver.js';
import {
  activity,
  activityWithTotals,
  createEndpoint,
  deliveryDetail,
  emitEvent,
  waitFor,
  waitForDelivery,
  workspaceWithProfiles,
  type Workspace,
} from '../support/webhooks.js';

// The global local server runs with WEBHOOK_RETRY_DELAYS=1,…,1 and WEBHOOK_TIMEOUT_MS=2000.
const receivers = receiverPool();
const receiver = receivers.start;
afterAll(receivers.closeAll);

async function setUp(respond: Responder, profileCount = 1) {
  const ws = await workspaceWithProfiles(profileCount);
  const r = await receiver(respond);
  const created = await createEndpoint(ws, { url: r.url });
  r.secrets.push(created.secret);
  return { ws, r, endpointId: created.webhook_endpoint.id, secret: created.secret };
}

const endpointPath = (ws: Workspace, id: string) => `/v1/workspaces/${ws.workspace.id}/webhook-endpoints/${id}`;
const attemptsOf = (ws: Workspace, deliveryId: string, count: number) =>
  waitFor(`${count} attempts`, async () => {
    const detail = await deliveryDetail(ws, deliveryId);
    return detail.attempts.length >= count && detail.delivery.status !== 'delivering' ? detail : undefined;
  });

/** Emits an event to an always-200 control endpoint and waits for it: events before it were fanned out. */
async function afterFanOutOf(ws: Workspace) {
  const control = await receiver(() => 200);
  await createEndpoint(ws, { url: control.url, name: 'control', event_types: ['post.mention'] });
  const marker = await emitEvent(ws, { type: 'post.mention' });
  await waitForDelivery(ws, marker, 'succeeded');
}

describe('webhook retries and response handling', () => {
  it('retries 500, 500 then succeeds on 200: three attempts, same webhook-id, new timestamp and signature each', async () => {
    const { ws, r } = await setUp((n) => (n <= 2 ? 500 : 200));
    const eventId = await emitEvent(ws);
    const delivery = await waitForDelivery(ws, eventId, 'succeeded');
    expect(r.received).toHaveLength(3);
    expect(r.received.every((req) => req.verified)).toBe(true);
    expect(new Set(r.received.map((req) => req.headers['webhook-id']))).toEqual(new Set([delivery.id]));
    expect(new Set(r.received.map((req) => req.headers['webhook-timestamp'])).size).toBe(3);
    expect(new Set(r.received.map((req) => req.headers['webhook-signature'])).size).toBe(3);
    expect(new Set(r.received.map((req) => req.body)).size).toBe(1);
    const detail = await deliveryDetail(ws, delivery.id);
    expect(detail.delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, last_status_code: 200 });
    expect(detail.attempts.map((a) => [a.number, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(detail.attempts[0]!.error).toContain('500');
  });

  it('answers the payload: the exact text both attempts (500, then a retry answered 200) sent and signed', async () => {
    const { ws, r, secret } = await setUp((n) => (n === 1 ? 500 : 200));
    const eventId = await emitEvent(ws, {
      data: { follower: { name: 'Zoë 🚀', id: 'f-1' }, note: 'a "quoted" \\ text' },
    });
    const delivery = await waitForDelivery(ws, eventId, 'succeeded');
    const detail = await deliveryDetail(ws, delivery.id);
    expect(r.received).toHaveLength(2);
    expect(detail.attempts.map((a) => a.status_code)).toEqual([500, 200]);
    const signedWith = (request: ReceivedRequest) => ({
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    for (const request of r.received) {
      expect(request.verified).toBe(true);
      expect(Buffer.from(detail.payload!, 'utf8').equals(Buffer.from(request.body, 'utf8'))).toBe(true);
      // The text the API answers verifies against each attempt's own signature as it is.
      expect(new Webhook(secret).verify(detail.payload!, signedWith(request))).toEqual(JSON.parse(request.body));
    }
    expect(JSON.parse(detail.payload!)).toMatchObject({ id: eventId, type: 'profile.followed' });
  });

  it('410 fails the delivery permanently and disables the endpoint; later events are not delivered until it is enabled', async () => {
    const { ws, r, endpointId } = await setUp((n) => (n === 1 ? 410 : 200));
    const first = await emitEvent(ws);
    const failed = await waitForDelivery(ws, first, 'failed');
    expect(failed).toMatchObject({ attempt_count: 1, last_status_code: 410, next_attempt_at: null });
    const list = await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`, { token: ws.token });
    const endpoint = list.body.data.items.find((e: { id: string }) => e.id === endpointId);
    expect(endpoint.status).toBe('disabled');
    expect(endpoint.disabled_at).toEqual(expect.any(String));

    const later = await emitEvent(ws);
    await afterFanOutOf(ws);
    expect(r.received).toHaveLength(1);
    expect((await activity(ws)).items.some((d) => d.webhook_event_id === later)).toBe(false);

    const enabled = await call('POST', `${endpointPath(ws, endpointId)}/enable`, { token: ws.token });
    expect(enabled.body.data.webhook_endpoint).toMatchObject({ status: 'active', disabled_at: null });
    const afterEnable = await emitEvent(ws);
    await waitForDelivery(ws, afterEnable, 'succeeded');
    expect(r.received).toHaveLength(2);
  });

  it('a receiver that never answers times out and the attempt is retried', async () => {
    const { ws, r } = await setUp((n) => (n === 1 ? 'hang' : 200));
    const eventId = await emitEvent(ws);
    const delivery = await waitForDelivery(ws, eventId, 'succeeded');
    const detail = await deliveryDetail(ws, delivery.id);
    expect(detail.attempts).toHaveLength(2);
    expect(detail.attempts[0]).toMatchObject({ number: 1, status_code: null, response_body: null });
    expect(detail.attempts[0]!.error).toMatch(/timeout/);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
  });

  it('a redirect is a failed attempt and is not followed', async () => {
    const elsewhere = await receiver(() => 200);
    const { ws, r } = await setUp((n) => (n === 1 ? { status: 302, headers: { location: elsewhere.url } } : 200));
    const eventId = await emitEvent(ws);
    const delivery = await waitForDelivery(ws, eventId, 'succeeded');
    const detail = await deliveryDetail(ws, delivery.id);
    expect(detail.attempts.map((a) => a.status_code)).toEqual([302, 200]);
    expect(detail.attempts[0]!.error).toMatch(/redirect/);
    expect(elsewhere.received).toHaveLength(0);
    expect(r.received).toHaveLength(2);
  });

  it('a URL change mid-retry sends the pending retry to the new URL with the same id and secret', async () => {
    const { ws, r, endpointId } = await setUp(() => 500);
    const moved = await receiver(() => 200);
    const eventId = await emitEvent(ws);
    const pending = await waitFor('first failed attempt', async () =>
      (await activity(ws)).items.find(
        (d) => d.webhook_event_id === eventId && d.attempt_count >= 1 && d.status === 'pending',
      ),
    );
    r.respond = () => 'hang'; // if the old URL were used again, the test would see it there
    const patched = await call('PATCH', endpointPath(ws, endpointId), { token: ws.token, body: { url: moved.url } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.webhook_endpoint).toMatchObject({ id: endpointId, url: moved.url });
    moved.secrets.push(...r.secrets);
    await waitForDelivery(ws, eventId, 'succeeded');
    expect(moved.received.length).toBeGreaterThanOrEqual(1);
    expect(moved.received.at(-1)!.verified).toBe(true);
    expect(moved.received.at(-1)!.headers['webhook-id']).toBe(pending.id);
  });

  it('a revoked endpoint gets no new deliveries, its pending retries end failed, and it cannot be changed', async () => {
    const { ws, r, endpointId } = await setUp(() => 500);
    const eventId = await emitEvent(ws);
    await waitFor('first failed attempt', () => (r.received.length >= 1 ? true : undefined));
    const revoked = await call('DELETE', endpointPath(ws, endpointId), { token: ws.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.webhook_endpoint.status).toBe('revoked');
    const failed = await waitForDelivery(ws, eventId, 'failed');
    expect(failed.last_error).toMatch(/revoked/);
    const countAfterRevoke = r.received.length;

    const later = await emitEvent(ws);
    await afterFanOutOf(ws);
    expect((await activity(ws)).items.some((d) => d.webhook_event_id === later)).toBe(false);
    expect(r.received).toHaveLength(countAfterRevoke);

    expectError(
      await call('PATCH', endpointPath(ws, endpointId), { token: ws.token, body: { name: 'again' } }),
      409,
      'invalid_state',
    );
    expectError(
      await call('POST', `${endpointPath(ws, endpointId)}/enable`, { token: ws.token }),
      409,
      'invalid_state',
    );
    expectError(
      await call('POST', `${endpointPath(ws, endpointId)}/rotate-secret`, { token: ws.token }),
      409,
      'invalid_state',
    );
    expectError(await call('POST', `${endpointPath(ws, endpointId)}/test`, { token: ws.token }), 409, 'invalid_state');
  });

  it('ten failed attempts end in failed; a manual retry continues the numbering with the same webhook-id', async () => {
    const { ws, r } = await setUp((n) => (n <= 10 ? 503 : 200));
    const eventId = await emitEvent(ws);
    const failed = await waitForDelivery(ws, eventId, 'failed', 30_000);
    expect(failed).toMatchObject({ attempt_count: 10, last_status_code: 503, next_attempt_at: null });
    const detail = await deliveryDetail(ws, failed.id);
    expect(detail.attempts.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.received).toHaveLength(10);
    expect(new Set(r.received.map((req) => req.body))).toEqual(new Set([detail.payload]));

    const retried = await call('POST', `/v1/workspaces/${ws.workspace.id}/webhook-deliveries/${failed.id}/retry`, {
      token: ws.token,
    });
    expect(retried.status).toBe(200);
    expect(retried.body.data.delivery).toMatchObject({ id: failed.id, status: 'pending', attempt_count: 10 });
    await waitForDelivery(ws, eventId, 'succeeded');
    const after = await attemptsOf(ws, failed.id, 11);
    expect(after.attempts.at(-1)).toMatchObject({ number: 11, status_code: 200 });
    expect(r.received.at(-1)!.headers['webhook-id']).toBe(failed.id);
    // The manual retry sent the very same body, and the detail answers it unchanged.
    expect(after.payload).toBe(detail.payload);
    expect(r.received.at(-1)!.body).toBe(detail.payload);
    expectError(
      await call('POST', `/v1/workspaces/${ws.workspace.id}/webhook-deliveries/${failed.id}/retry`, {
        token: ws.token,
      }),
      409,
      'invalid_state',
    );
  });

  it('totals always match the delivery records', async () => {
    const ws = await workspaceWithProfiles(1);
    const ok = await receiver(() => 200);
    const gone = await receiver(() => 410);
    await createEndpoint(ws, { url: ok.url, name: 'ok' });
    await createEndpoint(ws, { url: gone.url, name: 'gone' });
    const allFinal = (n: number) =>
      waitFor(`${n} final deliveries`, async () => {
        const { items } = await activity(ws);
        return items.length === n && items.every((d) => d.status === 'succeeded' || d.status === 'failed')
          ? true
          : undefined;
      });
    const events = [await emitEvent(ws)];
    await allFinal(2);
    events.push(await emitEvent(ws));
    await allFinal(3);
    // The totals lag by one stream batch: wait for them to count the three, then they must match exactly.
    const { totals, items } = await activityWithTotals(ws, { total: 3, pending: 0, delivering: 0 });
    const count = (status: string) => items.filter((d) => d.status === status).length;
    expect(totals).toEqual({
      total: items.length,
      succeeded: count('succeeded'),
      failed: count('failed'),
      pending: count('pending'),
      delivering: count('delivering'),
      success_rate: Math.round((count('succeeded') / (count('succeeded') + count('failed'))) * 1000) / 10,
    });
    // The 410 disabled "gone" after the first event, so the second reached only "ok".
    expect(totals).toMatchObject({ total: 3, succeeded: 2, failed: 1, success_rate: 66.7 });
    expect(new Set(items.map((d) => d.webhook_event_id))).toEqual(new Set(events));
  });
});
