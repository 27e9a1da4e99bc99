import { afterAll, describe, expect, it } from 'vitest';
import { call, signUp } from '../support/api.js';
import { receiverPool } from '../support/webhook-receiver.js';
import {
  activity,
  activityWithTotals,
  createEndpoint,
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

const deliveriesPath = (ws: Workspace) => `/v1/workspaces/${ws.workspace.id}/webhook-deliveries`;
const recoverPath = (ws: Workspace, endpointId: string) =>
  `/v1/workspaces/${ws.workspace.id}/webhook-endpoints/${endpointId}/recover`;

async function log(ws: Workspace, query: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const response = await call('GET', `${deliveriesPath(ws)}?${qs}`, { token: ws.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as {
    totals: Record<string, number>;
    items: Array<Record<string, any>>;
    next_cursor: string | null;
  };
}

/** Every item of a filtered log, following next_cursor (pages may be short). */
async function allPages(ws: Workspace, query: Record<string, string | number>) {
  const items: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await log(ws, { ...query, ...(cursor ? { cursor } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(Number(query.limit ?? 50));
    items.push(...page.items);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor && pages < 50);
  expect(cursor).toBeNull();
  return items;
}

describe('delivery log filters and paging', async () => {
  const ws = await workspaceWithProfiles(1);
  const ok = await receiver(() => 200);
  const gone = await receiver(() => 410);
  const a = (
    await createEndpoint(ws, { url: ok.url, name: 'always ok', event_types: ['profile.followed', 'post.mention'] })
  ).webhook_endpoint.id;
  const b = (await createEndpoint(ws, { url: gone.url, name: 'gone', event_types: ['profile.followed'] }))
    .webhook_endpoint.id;
  const followed = await emitEvent(ws, { type: 'profile.followed' });
  const mention = await emitEvent(ws, { type: 'post.mention' });
  await waitForDelivery(ws, mention, 'succeeded');
  await waitFor('three final deliveries', async () => {
    const { items } = await activity(ws);
    return items.length === 3 && items.every((d) => d.status === 'succeeded' || d.status === 'failed')
      ? items
      : undefined;
  });

  it("without parameters answers the spec's shape: totals, the most recently updated first, next_cursor null at the end", async () => {
    await activityWithTotals(ws, { total: 3, succeeded: 2, failed: 1, pending: 0, delivering: 0 });
    const page = await log(ws, {});
    expect(page.totals).toMatchObject({ total: 3, succeeded: 2, failed: 1, pending: 0, delivering: 0 });
    expect(page.items).toHaveLength(3);
    expect(page.next_cursor).toBeNull();
    const updated = page.items.map((d) => d.updated_at as string);
    expect([...updated].sort().reverse()).toEqual(updated);
  });

  it('filters by status, event type and endpoint, alone and combined', async () => {
    const failed = await allPages(ws, { status: 'failed' });
    expect(failed.map((d) => [d.webhook_endpoint_id, d.webhook_event_id, d.status])).toEqual([[b, followed, 'failed']]);
    expect(
      (await allPages(ws, { status: 'failed', webhook_endpoint_id: b })).map((d) => d.webhook_endpoint_id),
    ).toEqual([b]);
    expect(await allPages(ws, { status: 'failed', webhook_endpoint_id: a })).toEqual([]);
    const mentions = await allPages(ws, { event_type: 'post.mention' });
    expect(mentions.map((d) => [d.webhook_event_id, d.webhook_endpoint_id])).toEqual([[mention, a]]);
    const ofA = await allPages(ws, { webhook_endpoint_id: a });
    expect(ofA.map((d) => d.webhook_event_id).sort()).toEqual([followed, mention].sort());
    expect(
      await allPages(ws, { webhook_endpoint_id: a, status: 'succeeded', event_type: 'profile.followed' }),
    ).toHaveLength(1);
  });

  it('pages with limit and cursor through every delivery once, newest first', async () => {
    const first = await log(ws, { limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.next_cursor).toEqual(expect.any(String));
    const all = await allPages(ws, { limit: 1 });
    expect(new Set(all.map((d) => d.id)).size).toBe(3);
    expect(all[0]!.id).toBe(first.items[0]!.id);
    // A filtered page reads up to 2 × limit entries: two matches in one read, one kept, the cursor right after it.
    const succeeded = await allPages(ws, { limit: 1, status: 'succeeded' });
    expect(succeeded.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    expect(new Set(succeeded.map((d) => d.id)).size).toBe(2);
  });

  it('since/until bound updated_at', async () => {
    const { items } = await log(ws, {});
    const newest = items[0]!.updated_at as string;
    // Two deliveries may share a millisecond: the expected ids are those at or past (before) the bound.
    const idsWhere = (keep: (at: number) => boolean) =>
      items.filter((d) => keep(Date.parse(d.updated_at as string))).map((d) => d.id);
    const atOrAfterNewest = idsWhere((at) => at >= Date.parse(newest));
    expect((await log(ws, { since: newest })).items.map((d) => d.id)).toEqual(atOrAfterNewest);
    // until is exclusive: the oldest delivery's own instant leaves it out, a millisecond later takes it in.
    const oldest = items[2]!.updated_at as string;
    expect((await log(ws, { until: oldest })).items).toEqual([]);
    expect((await log(ws, { until: new Date(Date.parse(oldest) + 1).toISOString() })).items.map((d) => d.id)).toEqual(
      idsWhere((at) => at <= Date.parse(oldest)),
    );
    expect((await log(ws, { since: '2099-01-01T00:00:00Z' })).items).toEqual([]);
    // The same instant written with an offset selects the same deliveries.
    const withOffset = new Date(Date.parse(newest) + 3_600_000).toISOString().replace('Z', '+01:00');
    expect((await log(ws, { since: withOffset })).items.map((d) => d.id)).toEqual(atOrAfterNewest);
  });

  it('refuses a malformed cursor, an inverted window and an unknown status with 400 invalid_request', async () => {
    for (const query of [
      'cursor=not-a-cursor',
      'since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z',
      'status=lost',
      'limit=101',
      'since=yesterday',
    ]) {
      const response = await call('GET', `${deliveriesPath(ws)}?${query}`, { token: ws.token });
      expect(response.status, query).toBe(400);
      expect(response.body.error_code).toBe('invalid_request');
      expect(response.body.agent.hint).toEqual(expect.any(String));
    }
  });

  it("a cursor from another workspace's log is refused", async () => {
    const other = await workspaceWithProfiles(1);
    const { next_cursor } = await log(ws, { limit: 1 });
    const response = await call('GET', `${deliveriesPath(other)}?cursor=${next_cursor}`, { token: other.token });
    expect(response.status).toBe(400);
  });
});

describe('recovery of failed deliveries', () => {
  it('sends again, once each, what failed while the receiver was down; a second identical call queues nothing', async () => {
    const ws = await workspaceWithProfiles(1);
    let down = true;
    const r = await receiver(() => (down ? 503 : 200));
    const created = await createEndpoint(ws, { url: r.url });
    r.secrets.push(created.secret);
    const endpointId = created.webhook_endpoint.id;
    const since = new Date(Date.now() - 1000).toISOString();
    const events = [await emitEvent(ws), await emitEvent(ws)];
    const failed = await Promise.all(events.map((id) => waitForDelivery(ws, id, 'failed', 60_000)));
    expect(failed.map((d) => d.attempt_count)).toEqual([10, 10]);
    const before = r.received.length;

    // A window that ended before they failed holds nothing.
    const earlier = await call('POST', recoverPath(ws, endpointId), {
      token: ws.token,
      body: { since: '2026-01-01T00:00:00Z', until: '2026-01-10T00:00:00Z' },
    });
    expect(earlier.status).toBe(202);
    expect(earlier.body.data).toEqual({ queued: 0 });

    down = false;
    const recovered = await call('POST', recoverPath(ws, endpointId), { token: ws.token, body: { since } });
    expect(recovered.status).toBe(202);
    expect(recovered.body.data).toEqual({ queued: 2 });
    const again = await call('POST', recoverPath(ws, endpointId), { token: ws.token, body: { since } });
    expect(again.body.data).toEqual({ queued: 0 });

    const delivered = await Promise.all(events.map((id) => waitForDelivery(ws, id, 'succeeded')));
    expect(delivered.map((d) => d.attempt_count)).toEqual([11, 11]);
    expect(new Set(delivered.map((d) => d.id)).size).toBe(2);
    await new Promise((done) => setTimeout(done, 500));
    const resent = r.received.slice(before);
    expect(resent).toHaveLength(2);
    expect(resent.every((req) => req.verified)).toBe(true);
    expect(new Set(resent.map((req) => req.headers['webhook-id']))).toEqual(new Set(delivered.map((d) => d.id)));
    expect((await activityWithTotals(ws, { total: 2, succeeded: 2, failed: 0 })).totals).toMatchObject({
      total: 2,
      succeeded: 2,
      failed: 0,
      pending: 0,
      delivering: 0,
    });
  }, 90_000);

  it('validates the window, the endpoint and the caller', async () => {
    const ws = await workspaceWithProfiles(1);
    const r = await receiver(() => 200);
    const endpointId = (await createEndpoint(ws, { url: r.url })).webhook_endpoint.id;
    const now = Date.now();
    const cases: Array<[unknown, number]> = [
      [{ since: new Date(now - 15 * 86_400_000).toISOString() }, 400],
      [{ since: new Date(now + 60_000).toISOString() }, 400],
      [{ since: 'last week' }, 400],
      [{ since: new Date(now - 86_400_000).toISOString(), extra: true }, 400],
      [{}, 400],
    ];
    for (const [body, status] of cases) {
      const response = await call('POST', recoverPath(ws, endpointId), { token: ws.token, body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error_code).toBe('invalid_request');
    }
    const window = { since: new Date(now - 14 * 86_400_000 + 60_000).toISOString() };
    expect((await call('POST', recoverPath(ws, endpointId), { token: ws.token, body: window })).status).toBe(202);
    const stranger = await signUp('Stranger');
    const foreign = await call(
      'POST',
      `/v1/workspaces/${stranger.workspace.id}/webhook-endpoints/${endpointId}/recover`,
      { token: stranger.token, body: window },
    );
    expect(foreign.status).toBe(404);
    const notMember = await call('POST', recoverPath(ws, endpointId), { token: stranger.token, body: window });
    expect(notMember.status).toBe(403);
    await call('DELETE', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints/${endpointId}`, { token: ws.token });
    const revoked = await call('POST', recoverPath(ws, endpointId), { token: ws.token, body: window });
    expect(revoked.status).toBe(409);
    expect(revoked.body.error_code).toBe('invalid_state');
  });
});
