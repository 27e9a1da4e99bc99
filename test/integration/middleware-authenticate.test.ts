import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { AuthKind } from '../../shared/auth/principal.js';
import { newId } from '../../shared/domain/ids.js';
import type { RequiredScope } from '../../shared/domain/scopes.js';
import { issueToken } from '../../shared/domain/secret-tokens.js';
import type { ApiEvent, HttpLambda } from '../../shared/http/middleware/api-event.js';
import { authenticate } from '../../shared/http/middleware/authenticate.js';
import { errorEnvelope } from '../../shared/http/middleware/error-envelope.js';
import { parseToken } from '../../shared/domain/secret-tokens.js';
import { getSession, putSession } from '../../shared/store/sessions.js';
import { apiEvent, invoke } from '../support/events.js';
import { storedApiKey } from '../support/stored.js';

/** Only the envelope and the middleware under test, around a handler that reports what it was given. */
function guarded(auth: AuthKind, scope?: RequiredScope): HttpLambda {
  const stack = middy<ApiEvent, APIGatewayProxyStructuredResultV2, Error, Context>(async (event: ApiEvent) => ({
    statusCode: 200,
    body: JSON.stringify({ principal: event.auth?.principal?.kind ?? null, now: event.now?.toISOString() }),
  }));
  return stack.use(errorEnvelope()).use(authenticate({ auth, scope }));
}

async function seedSession(lastUsed?: Date): Promise<string> {
  const id = newId();
  const { token, secretHash } = issueToken('st', id);
  const now = new Date();
  await putSession({
    id,
    user_id: newId(),
    secret_hash: secretHash,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
    last_used_at: (lastUsed ?? now).toISOString(),
    user_agent: null,
    ip_prefix: null,
    method: 'password',
    second_factor: null,
  });
  return token;
}

const bearer = (token: string) => apiEvent({ method: 'GET', headers: { authorization: `Bearer ${token}` } });

describe('the authenticate middleware', () => {
  it("moves a session's last_used_at forward once it is 10 minutes old, and leaves a fresher one alone", async () => {
    const lastUsedOf = async (token: string) => (await getSession(parseToken(token)!.id))!.last_used_at;
    const fresh = new Date(Date.now() - 9 * 60_000);
    const freshToken = await seedSession(fresh);
    expect((await invoke(guarded('session'), bearer(freshToken))).status).toBe(200);
    expect(await lastUsedOf(freshToken)).toBe(fresh.toISOString());

    const staleToken = await seedSession(new Date(Date.now() - 11 * 60_000));
    const before = Date.now();
    const result = await invoke(guarded('session'), bearer(staleToken));
    // Written before the answer left: the next request reads the new time.
    expect(Date.parse(await lastUsedOf(staleToken))).toBeGreaterThanOrEqual(before);
    expect(await lastUsedOf(staleToken)).toBe(result.body.now);
  });

  it('lets an anonymous caller through a public route and stamps the request time', async () => {
    const before = Date.now();
    const result = await invoke(guarded('none'), apiEvent({ method: 'GET' }));
    expect(result.status).toBe(200);
    expect(result.body.principal).toBeNull();
    expect(Date.parse(result.body.now)).toBeGreaterThanOrEqual(before);
  });

  it('refuses an invalid credential even on a public route, with a Bearer challenge', async () => {
    const result = await invoke(guarded('none'), bearer('st_nope'));
    expect(result).toMatchObject({ status: 401, body: { error_code: 'unauthorized' } });
    expect(result.headers['www-authenticate']).toBe('Bearer');
  });

  it('requires a credential where the route needs one', async () => {
    const result = await invoke(guarded('credential', 'posts:write'), apiEvent({ method: 'GET' }));
    expect(result).toMatchObject({ status: 401, body: { error_code: 'unauthorized' } });
  });

  it('resolves sessions and API keys to their principal', async () => {
    expect((await invoke(guarded('session'), bearer(await seedSession()))).body.principal).toBe('session');
    expect(
      (
        await invoke(
          guarded('credential', 'posts:write'),
          bearer((await storedApiKey(newId(), ['posts:all'], [])).token),
        )
      ).body.principal,
    ).toBe('api_key');
  });

  it('answers session_required to an API key on a session route, and insufficient_scope to a key without the scope', async () => {
    const { token: key } = await storedApiKey(newId(), ['posts:read'], []);
    expect((await invoke(guarded('session'), bearer(key))).body.error_code).toBe('session_required');
    const lacking = await invoke(guarded('credential', 'posts:write'), bearer(key));
    expect(lacking).toMatchObject({ status: 403, body: { error_code: 'insufficient_scope' } });
    expect(lacking.body.agent.hint).toContain('posts:all');
  });

  it('refuses a revoked key at once', async () => {
    const result = await invoke(
      guarded('credential', 'posts:write'),
      bearer((await storedApiKey(newId(), ['all:all'], [], { revoked: true })).token),
    );
    expect(result).toMatchObject({ status: 401, body: { error_code: 'unauthorized' } });
    expect(result.body.agent.hint).toContain('revoked');
  });
});
