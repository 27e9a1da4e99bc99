import { describe, expect, inject, it } from 'vitest';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { call, expectError, unique } from '../support/api.js';
import type { Receiver } from '../support/webhook-receiver.js';
import {
  activity,
  createEndpoint,
  emitEvent,
  waitFor,
  waitForDelivery,
  workspaceWithProfiles,
  dedicatedServer,
  type Workspace,
} from '../support/webhooks.js';

// A server of its own with small limits, and an attempt timeout long enough that hanging
// receivers stay hanging for the whole test.
const env = {
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  TABLE_NAME: unique('wh_fair'),
  WEBHOOK_URL_POLICY: 'allow-local',
  PASSWORD_SCRYPT_LOG2_N: '14',
  ...GENEROUS_RATE_LIMITS,
  WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1,1,1,1',
  WEBHOOK_TIMEOUT_MS: '30000',
  WEBHOOK_MAX_ACTIVE_ENDPOINTS: '6',
  WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: '2',
  WEBHOOK_WORKSPACE_MAX_IN_FLIGHT: '4',
};

const server = dedicatedServer(env);
const receiver = server.receiver;

const endpointsPath = (ws: Workspace) => `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`;
const emit = (ws: Workspace) => emitEvent(ws, { tableName: env.TABLE_NAME });

describe('tenant fairness in webhook delivery', () => {
  it('caps active endpoints per workspace (409 with a hint); revoking one frees its place', async () => {
    const ws = await workspaceWithProfiles(1, server.baseUrl);
    const r = await receiver();
    const created = [];
    for (let i = 0; i < 6; i++) created.push(await createEndpoint(ws, { url: r.url, name: `receiver ${i}` }));
    const refused = await call('POST', endpointsPath(ws), {
      baseUrl: server.baseUrl,
      token: ws.token,
      body: { name: 'one too many', url: r.url, event_types: ['profile.followed'], profile_ids: [ws.profiles[0]!.id] },
    });
    const body = expectError(refused, 409, 'invalid_state');
    expect(body.error_message).toContain('6 active webhook endpoints');
    expect(body.agent.hint).toContain('Revoke');

    // Another workspace is not affected by this one's endpoints.
    const other = await workspaceWithProfiles(1, server.baseUrl);
    await createEndpoint(other, { url: r.url });

    const revoked = await call('DELETE', `${endpointsPath(ws)}/${created[0]!.webhook_endpoint.id}`, {
      baseUrl: server.baseUrl,
      token: ws.token,
    });
    expect(revoked.status).toBe(200);
    await createEndpoint(ws, { url: r.url, name: 'takes the freed place' });
    const again = await call('POST', endpointsPath(ws), {
      baseUrl: server.baseUrl,
      token: ws.token,
      body: {
        name: 'still too many',
        url: r.url,
        event_types: ['profile.followed'],
        profile_ids: [ws.profiles[0]!.id],
      },
    });
    expectError(again, 409, 'invalid_state');
  });

  it('hanging receivers of a busy workspace hold at most its in-flight limits; a quiet workspace is delivered meanwhile; nothing is dropped', async () => {
    const noisy = await workspaceWithProfiles(1, server.baseUrl);
    const hangingReceivers: Receiver[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await receiver(() => 'hang');
      const { secret } = await createEndpoint(noisy, { url: r.url, name: `hangs ${i}` });
      r.secrets.push(secret);
      hangingReceivers.push(r);
    }
    const events = [];
    for (let i = 0; i < 4; i++) events.push(await emit(noisy));
    const inFlight = () => hangingReceivers.reduce((sum, r) => sum + r.hanging(), 0);
    await waitFor('the busy workspace to reach its in-flight limit', () => (inFlight() >= 4 ? true : undefined));

    const quiet = await workspaceWithProfiles(1, server.baseUrl);
    const quietReceiver = await receiver(() => 200);
    const { secret } = await createEndpoint(quiet, { url: quietReceiver.url });
    quietReceiver.secrets.push(secret);
    const quietEvent = await emit(quiet);
    await waitForDelivery(quiet, quietEvent, 'succeeded');
    expect(quietReceiver.received.map((r) => r.verified)).toEqual([true]);

    // Still hanging, and never more than the workspace's 4 at once, at most 2 per endpoint.
    expect(inFlight()).toBe(4);
    expect(hangingReceivers.reduce((sum, r) => sum + r.received.length, 0)).toBe(4);
    for (const r of hangingReceivers) expect(r.received.length).toBeLessThanOrEqual(2);
    const held = await waitFor('the held deliveries counted', async () => {
      const page = await activity(noisy);
      return page.totals.pending! + page.totals.delivering! === 24 ? page : undefined;
    });
    expect(held.totals).toMatchObject({ total: 24, failed: 0, succeeded: 0 });
    expect(held.totals.pending! + held.totals.delivering!).toBe(24);

    // The receivers recover: every deferred attempt is made, none was dropped.
    for (const r of hangingReceivers) {
      r.respond = () => 200;
      r.release();
    }
    const done = await waitFor(
      'every delivery of the busy workspace to succeed',
      async () => {
        const { totals } = await activity(noisy);
        return totals.succeeded === 24 ? totals : undefined;
      },
      90_000,
    );
    expect(done).toMatchObject({ total: 24, succeeded: 24, failed: 0, pending: 0, delivering: 0 });
    for (const r of hangingReceivers) {
      const delivered = new Set(
        r.received.filter((q) => q.verified && q.headers['webhook-id']).map((q) => JSON.parse(q.body).id),
      );
      expect(delivered).toEqual(new Set(events));
    }
  }, 150_000);

  it('spaces the deliveries of an endpoint with rate_limit_per_second, dropping none', async () => {
    const ws = await workspaceWithProfiles(1, server.baseUrl);
    const arrivals: number[] = [];
    const r = await receiver(() => {
      arrivals.push(Date.now());
      return 200;
    });
    const created = await call('POST', endpointsPath(ws), {
      baseUrl: server.baseUrl,
      token: ws.token,
      body: {
        name: 'paced',
        url: r.url,
        event_types: ['profile.followed'],
        profile_ids: [ws.profiles[0]!.id],
        rate_limit_per_second: 2,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.webhook_endpoint.rate_limit_per_second).toBe(2);
    r.secrets.push(created.body.data.secret);

    const events = [];
    for (let i = 0; i < 6; i++) events.push(await emit(ws));
    await waitFor(
      'all six delivered',
      async () => ((await activity(ws)).totals.succeeded === 6 ? true : undefined),
      60_000,
    );
    expect(new Set(r.received.map((q) => JSON.parse(q.body).id))).toEqual(new Set(events));
    // 2 per second: send slots at least 500 ms apart, so the i-th arrival is at least i × 500 ms after
    // the first (unpaced, all six would arrive together). A timer fires late, never early; the margin
    // covers the first arrival being late on a busy machine.
    arrivals.forEach((t, i) => expect(t - arrivals[0]!).toBeGreaterThanOrEqual(i * 500 - 450));

    const id = created.body.data.webhook_endpoint.id;
    const cleared = await call('PATCH', `${endpointsPath(ws)}/${id}`, {
      baseUrl: server.baseUrl,
      token: ws.token,
      body: { rate_limit_per_second: null },
    });
    expect(cleared.body.data.webhook_endpoint.rate_limit_per_second).toBeNull();
    const zero = await call('PATCH', `${endpointsPath(ws)}/${id}`, {
      baseUrl: server.baseUrl,
      token: ws.token,
      body: { rate_limit_per_second: 0 },
    });
    expectError(zero, 400, 'invalid_request');
  }, 90_000);
});
