import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { unique } from '../support/api.js';
import {
  busyAccount,
  client,
  exportTraces,
  mediaTraces,
  scanTable,
  searchTraces,
  tableTraces,
} from '../support/erasure.js';
import { TEST_SERVER_SETTINGS } from '../support/global-setup.js';

const servers: LocalServer[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'erasure-restart-'));
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('killing the local server in the middle of an erasure', () => {
  it('finishes the erasure after the restart, and the scan is clean', async () => {
    // A table and data directory of its own, shared by both server processes (as `npm start` twice on the same .data).
    const env = {
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      TABLE_NAME: unique('erasure_restart'),
      DATA_DIR: dataDir,
      ...TEST_SERVER_SETTINGS,
    };
    const first = await startLocalServer(env);
    servers.push(first);
    const account = await busyAccount(client(first.baseUrl));
    const { subject } = account;
    const deleted = await client(first.baseUrl).send('DELETE', '/v1/me', {
      token: subject.session,
      body: { password: subject.password, when: 'now' },
    });
    expect(deleted.status).toBe(200);
    // Killed once the walk has started (the job is on a pass), before it ends (the second pass waits seconds).
    const job = async () =>
      (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).find((i) => i.entity === 'erasure_job');
    while (((await job())?.pass as number | undefined) === 0) await new Promise((r) => setTimeout(r, 20));
    // As a crash would end it (a stopped server's stop in afterAll does nothing).
    await first.stop('SIGKILL');
    const jobs = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter((i) => i.entity === 'erasure_job');
    expect(jobs).toHaveLength(1);

    const second = await startLocalServer(env);
    servers.push(second);
    const deadline = Date.now() + 60_000;
    let traces = await tableTraces(env.DYNAMODB_ENDPOINT, env.TABLE_NAME, account);
    while (traces.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      traces = await tableTraces(env.DYNAMODB_ENDPOINT, env.TABLE_NAME, account);
    }
    expect(traces).toEqual([]);
    expect(searchTraces(dataDir, account)).toEqual([]);
    expect(mediaTraces(dataDir, account)).toEqual([]);
    expect(exportTraces(dataDir, account)).toEqual([]);
    const after = (await scanTable(env.DYNAMODB_ENDPOINT, env.TABLE_NAME)).filter((i) => i.entity === 'erasure_job');
    expect(after).toEqual([]);
  }, 240_000); // two server starts on 2 cores
});
