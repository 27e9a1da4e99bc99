import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent, HttpLambda } from '../../shared/http/middleware/api-event.js';
import { errorEnvelope } from '../../shared/http/middleware/error-envelope.js';
import { rateLimit } from '../../shared/http/middleware/rate-limit.js';
import { db } from '../../shared/store/client.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';
import { apiEvent, invoke } from '../support/events.js';

let address = 0;
/** Each test calls from its own address, so counts never meet. */
const nextIp = () => `10.99.${Math.floor(Math.random() * 250)}.${++address}`;

function limited(deferWithoutCredential: boolean) {
  const calls = { handler: 0 };
  const limits = rateLimit({ deferWithoutCredential });
  const stack = middy<ApiEvent, APIGatewayProxyStructuredResultV2, Error, Context>(async () => {
    calls.handler++;
    return { statusCode: 200, body: JSON.stringify({ ok: true }) };
  });
  stack.use(limits.count).use(errorEnvelope()).use(limits.enforce);
  const handler: HttpLambda = stack;
  return { handler, calls };
}

const from = (ip: string, method: string) => {
  const event = apiEvent({ method });
  event.requestContext.http.sourceIp = ip;
  return event;
};

const saved = { ...process.env };
afterEach(() => {
  vi.useRealTimers();
  process.env.RATE_LIMIT_IP = saved.RATE_LIMIT_IP;
  process.env.TABLE_NAME = saved.TABLE_NAME;
});

describe('rate-limit middleware', () => {
  it('refuses a write over the limit before the handler runs', async () => {
    process.env.RATE_LIMIT_IP = '2/86400';
    const { handler, calls } = limited(false);
    const ip = nextIp();
    expect((await invoke(handler, from(ip, 'POST'))).status).toBe(200);
    expect((await invoke(handler, from(ip, 'POST'))).status).toBe(200);
    const refused = await invoke(handler, from(ip, 'POST'));
    expect(refused.status).toBe(429);
    expect(refused.body.error_code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(calls.handler).toBe(2);
  });

  it('lets an anonymous read run beside the count, then answers 429 in its place', async () => {
    process.env.RATE_LIMIT_IP = '1/86400';
    const { handler, calls } = limited(true);
    const ip = nextIp();
    expect((await invoke(handler, from(ip, 'GET'))).status).toBe(200);
    const refused = await invoke(handler, from(ip, 'GET'));
    expect(refused.status).toBe(429);
    expect(refused.headers.ratelimit).toMatch(/^"ip";r=0;t=\d+$/);
    expect(calls.handler).toBe(2);
  });

  it('lets requests through when the counter cannot be written', async () => {
    process.env.RATE_LIMIT_IP = '1/86400';
    process.env.TABLE_NAME = 'no-such-table';
    const { handler, calls } = limited(false);
    const ip = nextIp();
    expect((await invoke(handler, from(ip, 'POST'))).status).toBe(200);
    expect((await invoke(handler, from(ip, 'POST'))).status).toBe(200);
    expect(calls.handler).toBe(2);
  });

  it('books a slice of a large limit at once: fewer writes than requests, exact RateLimit, 429 at the limit', async () => {
    process.env.RATE_LIMIT_IP = '40/86400'; // slices of up to 4
    const { handler, calls } = limited(false);
    const ip = nextIp();
    const recorder = recordDynamoDbCalls(db());
    const remaining: number[] = [];
    for (let i = 0; i < 40; i++) {
      const reply = await invoke(handler, from(ip, 'POST'));
      expect(reply.status).toBe(200);
      remaining.push(Number(/^"ip";r=(\d+);t=\d+$/.exec(reply.headers.ratelimit as string)![1]));
    }
    expect(remaining).toEqual(Array.from({ length: 40 }, (_, i) => 39 - i));
    const writes = recorder.calls.filter((call) => call.command === 'UpdateItem').length;
    expect(writes).toBeLessThanOrEqual(40 / 4 + 3);
    const refused = await invoke(handler, from(ip, 'POST'));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers.ratelimit).toMatch(/^"ip";r=0;t=\d+$/);
    expect(refused.headers['ratelimit-policy']).toBe('"ip";q=40;w=86400');
    expect(calls.handler).toBe(40);
  });

  it('counts afresh when the window rolls over', async () => {
    process.env.RATE_LIMIT_IP = '3/60';
    vi.useFakeTimers({ toFake: ['Date'] });
    const windowStart = Math.floor(Date.now() / 60_000) * 60_000;
    vi.setSystemTime(windowStart + 1_000);
    const { handler } = limited(false);
    const ip = nextIp();
    for (let i = 0; i < 3; i++) expect((await invoke(handler, from(ip, 'POST'))).status).toBe(200);
    const refused = await invoke(handler, from(ip, 'POST'));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('59');
    vi.setSystemTime(windowStart + 60_000);
    const next = await invoke(handler, from(ip, 'POST'));
    expect(next.status).toBe(200);
    expect(next.headers.ratelimit).toBe('"ip";r=2;t=60');
  });
});
