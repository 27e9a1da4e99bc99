/**
 * GET /v1/stream on the HTTP API in AWS (functions/live/stream-events-redirect.ts): 307 to the same
 * path and query on the streaming REST API. A caller with a credential is checked as the route
 * checks it and sent on with a ticket of its own (fetch, EventSource and curl drop Authorization on
 * a redirect to another origin); a caller with a ticket is sent on as it came. Run in process on
 * the real table; the ticket it gives opens the local server's stream.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler, streamingLocation } from '../../functions/live/stream-events-redirect.js';
import { createApiKey } from '../support/api.js';
import { sendMessage } from '../support/live.js';
import { actor, type Actor } from '../support/social.js';
import { openStream } from '../support/sse.js';

const BASE = 'https://abc123.execute-api.eu-west-1.amazonaws.com/live/';

const event = (rawQueryString: string, headers: Record<string, string> = {}) =>
  ({
    version: '2.0',
    routeKey: 'GET /v1/stream',
    rawPath: '/v1/stream',
    rawQueryString,
    queryStringParameters: rawQueryString ? Object.fromEntries(new URLSearchParams(rawQueryString)) : undefined,
    headers: { accept: 'text/event-stream', ...headers },
    requestContext: {
      requestId: crypto.randomUUID(),
      http: { method: 'GET', path: '/v1/stream', sourceIp: '203.0.113.7', userAgent: 'test' },
    },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const context = { awsRequestId: 'invocation', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const invoke = async (e: APIGatewayProxyEventV2) => await handler(e, context);
const credential = (a: Actor) => ({ authorization: `Bearer ${a.key}`, 'x-profile-id': a.profile.id });

describe('GET /v1/stream on the HTTP API (AWS): the redirect to the streaming API', () => {
  beforeAll(() => {
    process.env.STREAMING_API_URL = BASE;
  });
  afterAll(() => {
    delete process.env.STREAMING_API_URL;
  });

  it('sends a caller with a credential on with a ticket of its own, keeping the query; the ticket opens its stream', async () => {
    const [alice, bob] = await Promise.all([actor(), actor()]);
    const answer = await invoke(event('types=message.created', credential(alice)));
    expect(answer.statusCode).toBe(307);
    expect(answer.headers).toMatchObject({ 'cache-control': 'no-store', 'x-request-id': expect.any(String) });
    const location = new URL(String(answer.headers!.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${BASE}v1/stream`);
    expect(location.searchParams.get('types')).toBe('message.created');
    const ticket = location.searchParams.get('ticket')!;
    expect(ticket).toMatch(/^stk_/);

    // The ticket is alice's: her stream opens with it (here on the local server), once.
    const stream = await openStream(`/v1/stream?${location.searchParams.toString()}`);
    expect(stream.status).toBe(200);
    await sendMessage(bob, alice, 'through the redirect');
    expect(JSON.parse((await stream.next())!.data).data.message.body).toBe('through the redirect');
    stream.close();
  }, 30_000);

  it('refuses as the route does: no credential (401), no events:read (403)', async () => {
    const alice = await actor();
    const none = await invoke(event(''));
    expect(none.statusCode).toBe(401);
    expect(JSON.parse(String(none.body))).toMatchObject({ ok: false, error_code: 'unauthorized' });
    const { key } = await createApiKey(alice.session, alice.workspaceId, ['messages:read'], [alice.profile.id]);
    const scoped = await invoke(event('', { authorization: `Bearer ${key}`, 'x-profile-id': alice.profile.id }));
    expect(scoped.statusCode).toBe(403);
    expect(JSON.parse(String(scoped.body))).toMatchObject({ error_code: 'insufficient_scope' });
  });

  it('sends a caller with a ticket on as it came', async () => {
    const answer = await invoke(event('ticket=stk_given&after=0000491234000001-1a2b3c4d'));
    expect(answer.statusCode).toBe(307);
    expect(answer.headers!.location).toBe(`${BASE}v1/stream?ticket=stk_given&after=0000491234000001-1a2b3c4d`);
  });

  it('joins the base with or without its final slash, and adds no "?" without a query', () => {
    expect(streamingLocation('https://h/live/', '/v1/stream', '')).toBe('https://h/live/v1/stream');
    expect(streamingLocation('https://h/live', '/v1/stream', 'after=1')).toBe('https://h/live/v1/stream?after=1');
  });
});
