import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, HttpLambda } from '../../shared/http/middleware/api-event.js';
import { errorEnvelope } from '../../shared/http/middleware/error-envelope.js';
import { rateLimit } from '../../shared/http/middleware/rate-limit.js';
import { hitWindow } from '../../shared/store/rate-limits.js';
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
  return { handler: stack as unknown as HttpLambda, calls };
}

const from = (ip: string, method: string) => {
  const event = apiEvent({ method });
  event.requestContext.http.sourceIp = ip;
  return event;
};

const saved = { ...process.env };
afterEach(() => {
  process.env.RATE_LIMIT_IP = saved.RATE_LIMIT_IP;
  process.env.TABLE_NAME = saved.TABLE_NAME;
});

describe('rate-limit middleware', () => {
  it('counts concurrent requests exactly: the window never lets more than the limit through', async () => {
    const subject = nextIp();
    const hits = await Promise.all(Array.from({ length: 20 }, () => hitWindow('ip', subject, 0, 86_400, 5)));
    expect(hits.filter((h) => !h.limited).map((h) => h.count).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(hits.filter((h) => h.limited)).toHaveLength(15);
  });

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
});
