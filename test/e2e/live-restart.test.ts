/**
 * Nothing lost across a restart of the runtime (issue 34): a client reads part of its stream and
 * drops it, the server is killed (its stream poller's checkpoints cut off wherever they were, so
 * some changes are logged again after the restart: they must not come twice), more events come
 * on the new process, and the client resumes there with its last id.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { call, unique } from '../support/api.js';
import { TEST_SERVER_SETTINGS } from '../support/global-setup.js';
import { readStream, sendMessage, type Party, type Received } from '../support/live.js';
import { workspaceWithProfiles } from '../support/webhooks.js';

const servers: LocalServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

const BEFORE = 30;
const AFTER = 30;

describe('restarting the local runtime between a disconnect and the resume', () => {
  it('resumes exactly after the last id on the new process: every event once, in order', async () => {
    const env = {
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TABLE_NAME: unique('live_restart'),
      ...TEST_SERVER_SETTINGS,
    };
    const first = await startLocalServer(env);
    servers.push(first);
    const ws = await workspaceWithProfiles(2, first.baseUrl);
    const { key } = (
      await call('POST', `/v1/workspaces/${ws.workspace.id}/api-keys`, {
        baseUrl: first.baseUrl,
        token: ws.token,
        body: {
          name: 'live',
          scopes: ['messages:write', 'events:read', 'follows:write'],
          profile_ids: ws.profiles.map((p) => p.id),
        },
      })
    ).body.data as { key: string };
    const [reader, sender]: Party[] = ws.profiles.map((profile: { id: string }) => ({ key, profile }));

    await sendMessage(sender!, reader!, 'start', first.baseUrl);
    const start = (
      await call('GET', '/v1/events?types=message.created&wait=10', {
        baseUrl: first.baseUrl,
        token: key,
        profileId: reader!.profile.id,
      })
    ).body.data as { next_cursor: string };

    const sending = (async () => {
      for (let n = 0; n < BEFORE; n++) await sendMessage(sender!, reader!, `before-${n}`, first.baseUrl);
    })();
    const part = await readStream(reader!, start.next_cursor, (got) => got.length < 10, first.baseUrl);
    await sending;
    // Killed as soon as the last message is answered: its events may not all be logged yet.
    first.process.kill('SIGKILL');
    servers.splice(servers.indexOf(first), 1);
    await new Promise<void>((done) =>
      first.process.exitCode !== null || first.process.signalCode !== null
        ? done()
        : first.process.once('exit', () => done()),
    );

    const second = await startLocalServer(env);
    servers.push(second);
    for (let n = 0; n < AFTER; n++) await sendMessage(sender!, reader!, `after-${n}`, second.baseUrl);
    const total = BEFORE + AFTER;
    const rest = await readStream(
      reader!,
      part.last,
      (got) => part.received.length + got.length < total,
      second.baseUrl,
    );

    const received: Received[] = [...part.received, ...rest.received];
    const ids = received.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(received.map((e) => e.body)).toEqual([
      ...Array.from({ length: BEFORE }, (_, n) => `before-${n}`),
      ...Array.from({ length: AFTER }, (_, n) => `after-${n}`),
    ]);
  }, 150_000); // two server starts on 2 cores
});
