import { afterAll, describe, expect, it } from 'vitest';
import { createUndiciSender } from '../../shared/ports/outbound/undici-sender.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** A resolver that answers 127.0.0.1 after `ms`, or never. */
const slowResolver = (ms: number | 'never') => () =>
  new Promise<{ address: string; family: number }[]>((resolve) => {
    if (ms !== 'never') setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), ms);
  });

describe('the attempt timeout covers DNS resolution', () => {
  it('a resolver that never answers ends the attempt at its timeout', async () => {
    const sender = createUndiciSender(slowResolver('never'));
    const result = await sender.post('http://receiver.localhost:9/hooks', {}, '{}', {
      timeoutMs: 300,
      policy: 'allow-local',
    });
    expect(result).toEqual({
      statusCode: null,
      error: 'timeout after 300 ms (resolving the receiver host)',
      responseBody: null,
    });
  });

  it('a slow lookup leaves the request only what remains of the timeout', async () => {
    const r = await startReceiver(() => 'hang');
    receivers.push(r);
    const port = new URL(r.url).port;
    const sender = createUndiciSender(slowResolver(1000));
    const started = Date.now();
    const result = await sender.post(`http://receiver.localhost:${port}/hooks`, {}, '{}', {
      timeoutMs: 1500,
      policy: 'allow-local',
    });
    const took = Date.now() - started;
    expect(result).toMatchObject({ statusCode: null, error: 'timeout after 1500 ms' });
    expect(r.received).toHaveLength(1);
    // DNS outside the timeout would make this 1000 + 1500 ms.
    expect(took).toBeLessThan(2300);
  });
});
