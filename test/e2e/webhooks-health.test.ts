import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { db } from '../../shared/store/client.js';
import { entityTags, keys } from '../../shared/store/keys.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { call, unique } from '../support/api.js';
import type { Receiver, Responder } from '../support/webhook-receiver.js';
import {
  createEndpoint,
  emitEvent,
  waitFor,
  waitForDelivery,
  workspaceWithProfiles,
  dedicatedServer,
  type Workspace,
} from '../support/webhooks.js';

// A server of its own: retries at once (all ten attempts of a delivery in one burst), an endpoint
// disabled once every attempt failed for 1 s, but only when its failures are an hour apart. The
// tests set when a streak began (`failingSince`) instead of waiting: the health check compares the
// attempt's time with it, so an hour's margin either side leaves nothing to the machine's speed.
const env = {
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  TABLE_NAME: unique('wh_health'),
  WEBHOOK_URL_POLICY: 'allow-local',
  PASSWORD_SCRYPT_LOG2_N: '14',
  ...GENEROUS_RATE_LIMITS,
  WEBHOOK_RETRY_DELAYS: '0,0,0,0,0,0,0,0,0',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_HEALTH_DISABLE_AFTER: '1',
  WEBHOOK_HEALTH_MIN_FAILURE_SPREAD: '3600',
};
const MINUTE = 60_000;
const OPERATIONAL = ['webhook_endpoint.disabled', 'webhook_delivery.exhausted'];

const server = dedicatedServer(env);
const receiver = server.receiver;

const emit = (ws: Workspace) => emitEvent(ws, { tableName: env.TABLE_NAME });
const endpointOf = async (ws: Workspace, id: string) =>
  (
    await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`, {
      baseUrl: server.baseUrl,
      token: ws.token,
    })
  ).body.data.items.find((e: { id: string }) => e.id === id);
/** The endpoint's failure streak, as if its first failed attempt had been `ago` ms before now. */
const failingSince = (endpointId: string, ago: number) =>
  db().send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: {
        ...keys.webhookEndpointHealth(endpointId),
        entity: entityTags.webhookEndpointHealth,
        failing_since: new Date(Date.now() - ago).toISOString(),
      },
    }),
  );
const bodies = (r: Receiver) => r.received.filter((q) => q.verified).map((q) => JSON.parse(q.body));

/** A workspace with a failing endpoint (profile 1's events) and an observer of the operational events (profile 2 only). */
async function setUp(failing: Responder) {
  const ws = await workspaceWithProfiles(2, server.baseUrl);
  const bad = await receiver(failing);
  const badEndpoint = await createEndpoint(ws, {
    url: bad.url,
    name: 'failing',
    event_types: ['profile.followed', ...OPERATIONAL],
  });
  bad.secrets.push(badEndpoint.secret);
  const observer = await receiver(() => 200);
  const observed = await createEndpoint(ws, {
    url: observer.url,
    name: 'observer',
    event_types: OPERATIONAL,
    profile_ids: [ws.profiles[1]!.id],
  });
  observer.secrets.push(observed.secret);
  const bystander = await receiver(() => 200);
  await createEndpoint(ws, {
    url: bystander.url,
    name: 'bystander',
    event_types: ['profile.followed'],
    profile_ids: [ws.profiles[1]!.id],
  });
  return {
    ws,
    bad,
    badId: badEndpoint.webhook_endpoint.id,
    observer,
    observerId: observed.webhook_endpoint.id,
    bystander,
  };
}

describe('endpoint health and operational events', () => {
  it('lists the operational event types in the catalogue', async () => {
    const catalogue = await call('GET', '/v1/webhook-event-types', { baseUrl: server.baseUrl });
    expect(catalogue.body.data.items.map((i: { type: string }) => i.type)).toEqual(expect.arrayContaining(OPERATIONAL));
  });

  it('an exhausted delivery is announced to the other endpoints that select it; failures closer together than the spread do not disable', async () => {
    const { ws, bad, badId, observer, bystander } = await setUp(() => 500);
    // Failing for ten minutes: past the 1 s period, an hour short of the spread.
    await failingSince(badId, 10 * MINUTE);
    const eventId = await emit(ws);
    const failed = await waitForDelivery(ws, eventId, 'failed');
    expect(failed.attempt_count).toBe(10);

    const [exhausted] = await waitFor('the exhausted event', () => {
      const found = bodies(observer).filter((b) => b.type === 'webhook_delivery.exhausted');
      return found.length ? found : undefined;
    });
    expect(exhausted).toMatchObject({
      type: 'webhook_delivery.exhausted',
      profile_id: null,
      data: {
        webhook_delivery: {
          id: failed.id,
          webhook_event_id: eventId,
          webhook_endpoint_id: badId,
          event_type: 'profile.followed',
          attempt_count: 10,
          last_status_code: 500,
        },
      },
    });
    // Its own failure is not sent to the failing endpoint, and not to endpoints that did not select it.
    expect(bodies(bad).every((b) => b.type === 'profile.followed')).toBe(true);
    expect(bystander.received).toHaveLength(0);
    // Ten more failures, the streak still far below the spread: active.
    expect(await endpointOf(ws, badId)).toMatchObject({ status: 'active', disabled_reason: null });
  });

  it('an endpoint whose attempts all failed for the health period is disabled with reason failing, announced once; enable resets it', async () => {
    const { ws, bad, badId, observer } = await setUp(() => 500);
    // Failing for two hours: past the period and the spread, so the next failed attempt disables.
    await failingSince(badId, 120 * MINUTE);
    const eventId = await emit(ws);
    await waitForDelivery(ws, eventId, 'failed');

    const endpoint = await endpointOf(ws, badId);
    expect(endpoint).toMatchObject({ status: 'disabled', disabled_reason: 'failing', disabled_at: expect.any(String) });
    const disabledEvents = await waitFor('the disabled event', () => {
      const found = bodies(observer).filter((b) => b.type === 'webhook_endpoint.disabled');
      return found.length ? found : undefined;
    });
    expect(disabledEvents).toHaveLength(1);
    expect(disabledEvents[0]).toMatchObject({
      profile_id: null,
      data: {
        webhook_endpoint: {
          id: badId,
          name: 'failing',
          status: 'disabled',
          disabled_reason: 'failing',
          disabled_at: endpoint.disabled_at,
        },
      },
    });
    // The delivery stopped at the disable: one attempt, then ended without sending.
    expect(bodies(bad).filter((b) => b.id === eventId)).toHaveLength(1);

    bad.respond = () => 200;
    const enabled = await call('POST', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints/${badId}/enable`, {
      baseUrl: server.baseUrl,
      token: ws.token,
    });
    expect(enabled.body.data.webhook_endpoint).toMatchObject({
      status: 'active',
      disabled_at: null,
      disabled_reason: null,
    });
    const third = await emit(ws);
    await waitForDelivery(ws, third, 'succeeded');
  }, 60_000);

  it('410 disables with reason gone and is announced to the other endpoints', async () => {
    const { ws, badId, observer } = await setUp(() => 410);
    const eventId = await emit(ws);
    await waitForDelivery(ws, eventId, 'failed');
    expect(await endpointOf(ws, badId)).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    const [announced] = await waitFor('the disabled event', () => {
      const found = bodies(observer).filter((b) => b.type === 'webhook_endpoint.disabled');
      return found.length ? found : undefined;
    });
    expect(announced.data.webhook_endpoint).toMatchObject({ id: badId, disabled_reason: 'gone' });
    // A 410 is not an exhausted delivery.
    await new Promise((r) => setTimeout(r, 500));
    expect(bodies(observer).some((b) => b.type === 'webhook_delivery.exhausted')).toBe(false);
  });
});
