import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth/principal.js';
import { newId } from '../../shared/domain/ids.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import type { ApiEvent, ApiMiddleware, HttpLambda } from '../../shared/http/middleware/api-event.js';
import { errorEnvelope } from '../../shared/http/middleware/error-envelope.js';
import {
  credentialScope,
  idempotency,
  idempotencyKeyHash,
  requestFingerprint,
} from '../../shared/http/middleware/idempotency.js';
import { claimIdempotencyKey } from '../../shared/store/idempotency.js';
import { apiEvent, invoke } from '../support/events.js';

const sessionOf = (): Principal => ({
  kind: 'session',
  userId: newId(),
  session: {
    id: newId(),
    user_id: newId(),
    secret_hash: 'x',
    created_at: '',
    expires_at: '',
    last_used_at: '',
    user_agent: null,
    ip_prefix: null,
    method: 'password' as const,
    second_factor: null,
  },
});

/** Stands in for authenticate: the caller is given. */
const as = (principal: Principal): ApiMiddleware => ({
  before: async ({ event }) => {
    event.auth = { principal, actingProfile: undefined };
    event.now = new Date();
  },
});

function creates(principal: Principal, outcome: () => 'ok' | 'fail' = () => 'ok') {
  const calls = { handler: 0 };
  // Like httpHandler's core: a replay is answered instead of running the handler.
  const stack = middy<ApiEvent, APIGatewayProxyStructuredResultV2, Error, Context>(async (event: ApiEvent) => {
    if (event.idempotentReplay) return event.idempotentReplay;
    calls.handler++;
    if (outcome() === 'fail') throw new ApiError('username_taken');
    return {
      statusCode: 201,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: newId(), body: event.body }),
    };
  });
  stack.use(errorEnvelope()).use(as(principal)).use(httpJsonBodyParser()).use(idempotency());
  const handler: HttpLambda = stack;
  return { handler, calls };
}

const post = (body: string, key?: string) =>
  apiEvent({
    body,
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });

describe('idempotency middleware', () => {
  it('answers a retry with the first response, once created, and the same body in another key order counts as the same', async () => {
    const { handler, calls } = creates(sessionOf());
    const first = await invoke(handler, post('{"a":1,"b":[1,2]}', 'key-1'));
    const again = await invoke(handler, post('{ "b": [1, 2], "a": 1 }', 'key-1'));
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(calls.handler).toBe(1);
    // Without the header, nothing is remembered.
    await invoke(handler, post('{"a":1}'));
    await invoke(handler, post('{"a":1}'));
    expect(calls.handler).toBe(3);
  });

  it('refuses the key with another body (422) and a malformed key (400)', async () => {
    const { handler } = creates(sessionOf());
    await invoke(handler, post('{"a":1}', 'key-2'));
    const other = await invoke(handler, post('{"a":2}', 'key-2'));
    expect(other.status).toBe(422);
    expect(other.body.error_code).toBe('invalid_request');
    const bad = await invoke(handler, post('{"a":1}', 'tab\there'));
    expect(bad.status).toBe(400);
    expect((await invoke(handler, post('{"a":1}', 'x'.repeat(256)))).status).toBe(400);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const principal = sessionOf();
    const { handler, calls } = creates(principal);
    const event = post('{"a":1}', 'key-3');
    await claimIdempotencyKey({
      scope: credentialScope(principal),
      keyHash: idempotencyKeyHash('key-3'),
      fingerprint: requestFingerprint({ ...event, body: { a: 1 } as never }),
      now: new Date(),
      keepSeconds: 86_400,
      leaseSeconds: 60,
    });
    const duplicate = await invoke(handler, event);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error_code).toBe('invalid_state');
    expect(calls.handler).toBe(0);
  });

  it('keeps keys apart per credential, and frees a key whose request failed', async () => {
    let result: 'ok' | 'fail' = 'fail';
    const principal = sessionOf();
    const { handler, calls } = creates(principal, () => result);
    expect((await invoke(handler, post('{"a":1}', 'key-4'))).status).toBe(409);
    result = 'ok';
    expect((await invoke(handler, post('{"a":1}', 'key-4'))).status).toBe(201);
    expect(calls.handler).toBe(2);

    const other = creates(sessionOf());
    expect((await invoke(other.handler, post('{"a":2}', 'key-4'))).status).toBe(201);
    expect(other.calls.handler).toBe(1);
  });
});
