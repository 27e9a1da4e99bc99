import { afterAll, describe, expect, inject, it } from 'vitest';
import { unique } from '../support/api.js';
import { TEST_SERVER_SETTINGS } from '../support/global-setup.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { activity, createEndpoint, emitEvent, waitFor, workspaceWithProfiles } from '../support/webhooks.js';

const servers: LocalServer[] = [];
let receiver: Receiver | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await receiver?.close();
});

describe('restarting the local server in the middle of deliveries', () => {
  it('loses none: claims of the killed process are released, timers re-found, events written while down delivered', async () => {
    // A table of its own, shared by both server processes (as `npm start` twice on the same .data).
    const env = {
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TABLE_NAME: unique('wh_restart'),
      ...TEST_SERVER_SETTINGS,
      WEBHOOK_TIMEOUT_MS: '1000',
    };
    const first = await startLocalServer(env);
    servers.push(first);
    const ws = await workspaceWithProfiles(1, first.baseUrl);
    // While the first server lives, the receiver never answers: every delivery is mid-attempt.
    receiver = await startReceiver(() => 'hang');
    const { secret } = await createEndpoint(ws, { url: receiver.url });
    receiver.secrets.push(secret);

    const before = [];
    for (let i = 0; i < 4; i++) before.push(await emitEvent(ws, { tableName: env.TABLE_NAME }));
    await waitFor('deliveries in flight', () => (receiver!.received.length >= 1 ? true : undefined), 90_000);
    first.process.kill('SIGKILL');
    servers.splice(servers.indexOf(first), 1);
    await new Promise<void>((done) =>
      first.process.exitCode !== null || first.process.signalCode !== null
        ? done()
        : first.process.once('exit', () => done()),
    );

    // Events written while no server runs.
    const whileDown = [
      await emitEvent(ws, { tableName: env.TABLE_NAME }),
      await emitEvent(ws, { tableName: env.TABLE_NAME }),
    ];
    receiver.respond = () => 200;

    const second = await startLocalServer(env);
    servers.push(second);
    ws.baseUrl = second.baseUrl;
    const all = [...before, ...whileDown];
    const final = await waitFor(
      'every event delivered',
      async () => {
        const { items, totals } = await activity(ws);
        // The list and the totals are two reads made side by side: wait until both show the last success.
        const settled =
          items.length === all.length &&
          items.every((d) => d.status === 'succeeded') &&
          totals.succeeded === all.length;
        return settled ? { items, totals } : undefined;
      },
      40_000,
    );
    expect(new Set(final.items.map((d) => d.webhook_event_id))).toEqual(new Set(all));
    expect(final.totals).toMatchObject({
      total: 6,
      succeeded: 6,
      failed: 0,
      pending: 0,
      delivering: 0,
      success_rate: 100,
    });
    const delivered = new Set(receiver.received.filter((r) => r.verified).map((r) => JSON.parse(r.body).id));
    for (const id of all) expect(delivered.has(id), id).toBe(true);
  }, 180_000); // two server starts, a kill, stale claims and in-flight places expiring: slow on 2 cores
});
