/**
 * The webhook sender's HTTP adapter as the Lambda bundle carries it (infra/bundling.ts, which
 * leaves two of undici's lazily required files out): bundled on its own with the same settings,
 * imported from the bundle, and sent to a real receiver. The sources are what every other test
 * runs; this one fails if the bundle's undici needed what was left out to post a webhook.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLING } from '../../infra/bundling.js';
import type { HttpSender } from '../../shared/ports/http-sender.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

let dir: string;
let sender: HttpSender;
let receiver: Receiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bundled-sender-'));
  const outfile = join(dir, 'undici-sender.mjs');
  await build({
    ...LAMBDA_BUNDLING,
    entryPoints: ['shared/ports/outbound/undici-sender.ts'],
    outfile,
    sourcemap: false,
    logLevel: 'silent',
  });
  ({ undiciSender: sender } = (await import(pathToFileURL(outfile).href)) as { undiciSender: HttpSender });
  receiver = await startReceiver((n) => ({ status: n === 1 ? 200 : 503, body: `answer ${n}` }));
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the bundled sender (undici's HTTP/1.1 client without its second parser and fetch body)", () => {
  it('posts a string body and reads the status and the response body', async () => {
    const first = await sender.post(`${receiver.url}/hooks`, { 'content-type': 'application/json' }, '{"n":1}', {
      timeoutMs: 5000,
      policy: 'allow-local',
    });
    expect(first).toEqual({ statusCode: 200, error: null, responseBody: 'answer 1' });
    const second = await sender.post(`${receiver.url}/hooks`, {}, '{"n":2}', {
      timeoutMs: 5000,
      policy: 'allow-local',
    });
    expect(second).toEqual({ statusCode: 503, error: null, responseBody: 'answer 2' });
    expect(receiver.received.map((r) => r.body)).toEqual(['{"n":1}', '{"n":2}']);
  });
});
