/**
 * OAuth 2.1 over raw HTTP (API.md "Agents sign in with OAuth 2.1"): discovery, registration, the
 * code exchange and every refusal, tokens on /mcp and on /v1, refresh rotation and revocation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createProfile, signUp } from '../support/api.js';
import { actor, ok, type Actor } from '../support/social.js';
import {
  approvedCode,
  base,
  decide,
  exchange,
  mcpResource,
  pkcePair,
  raw,
  refresh,
  registerClient,
} from '../support/oauth.js';

let alice: Actor;
beforeAll(async () => {
  alice = await actor();
});

const mcpInitialize = (token?: string) =>
  fetch(`${base()}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {},
    }),
  });

const choice = () => ({
  workspace_id: alice.workspaceId,
  profile_ids: [alice.profile.id],
  scopes: ['posts:read', 'posts:write'],
});

async function tokensFor(resource = mcpResource()) {
  const approved = await approvedCode(alice.session, choice(), { resource });
  const exchanged = await exchange(approved);
  expect(exchanged.status).toBe(200);
  return { ...approved, ...(exchanged.body as { access_token: string; refresh_token: string }) };
}

describe('discovery', () => {
  it('publishes the protected resource and authorization server metadata, the issuer being the base URL', async () => {
    const mcp = await raw('GET', '/.well-known/oauth-protected-resource/mcp');
    expect(mcp.status).toBe(200);
    expect(mcp.body).toEqual({
      resource: `${base()}/mcp`,
      authorization_servers: [base()],
      scopes_supported: expect.arrayContaining(['posts:read', 'all:all']),
      bearer_methods_supported: ['header'],
    });
    const api = await raw('GET', '/.well-known/oauth-protected-resource');
    expect(api.body.resource).toBe(base());
    const server = await raw('GET', '/.well-known/oauth-authorization-server');
    expect(server.body).toEqual({
      issuer: base(),
      authorization_endpoint: `${base()}/oauth/authorize`,
      token_endpoint: `${base()}/oauth/token`,
      registration_endpoint: `${base()}/oauth/register`,
      revocation_endpoint: `${base()}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: mcp.body.scopes_supported,
    });
  });

  it('answers /mcp without a credential 401 with the metadata URL in WWW-Authenticate', async () => {
    const response = await mcpInitialize();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base()}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe('dynamic client registration', () => {
  it('registers a public client: 201, a client_id and no secret', async () => {
    const registered = await raw('POST', '/oauth/register', {
      json: { redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:33418/cb'], client_name: 'Agent' },
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      client_id: expect.any(String),
      client_name: 'Agent',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://app.example/cb', 'http://127.0.0.1:33418/cb'],
    });
    expect(registered.body).not.toHaveProperty('client_secret');
  });

  it.each([
    [['http://app.example/cb'], 'invalid_redirect_uri'],
    [['https://app.example/cb#frag'], 'invalid_redirect_uri'],
    [[], 'invalid_redirect_uri'],
  ])('refuses redirect_uris %j with %s', async (uris, error) => {
    const refused = await raw('POST', '/oauth/register', { json: { redirect_uris: uris } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(error);
  });

  it('refuses a client_name with a right-to-left override, as workspace and profile names do', async () => {
    const refused = await raw('POST', '/oauth/register', {
      json: { redirect_uris: ['https://app.example/cb'], client_name: 'Agent \u202Ebc.live' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_client_metadata');
    expect(refused.body.error_description).toMatch(/^client_name: must not contain control or invisible/);
  });

  it('refuses a confidential client and a body that is not JSON', async () => {
    const secretClient = await raw('POST', '/oauth/register', {
      json: { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' },
    });
    expect(secretClient.body.error).toBe('invalid_client_metadata');
    const notJson = await raw('POST', '/oauth/register', { form: { redirect_uris: 'x' } });
    expect(notJson.body.error).toBe('invalid_client_metadata');
  });
});

describe('the authorization endpoint', () => {
  it('sends a valid request to the consent page, and PKCE problems back to the client', async () => {
    const redirectUri = 'https://app.example/cb';
    const clientId = await registerClient([redirectUri]);
    const { challenge } = pkcePair();
    const query = (extra: Record<string, string>) =>
      new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        state: 's1',
        ...extra,
      }).toString();

    const valid = await raw(
      'GET',
      `/oauth/authorize?${query({ code_challenge: challenge, code_challenge_method: 'S256' })}`,
    );
    expect(valid.status).toBe(302);
    expect(valid.headers.get('location')).toMatch(new RegExp(`^${base()}/console/#/oauth/authorize\\?`));

    const noPkce = await raw('GET', `/oauth/authorize?${query({})}`);
    expect(noPkce.status).toBe(302);
    const noPkceTo = new URL(noPkce.headers.get('location')!);
    expect(noPkceTo.origin + noPkceTo.pathname).toBe(redirectUri);
    expect(Object.fromEntries(noPkceTo.searchParams)).toMatchObject({
      error: 'invalid_request',
      state: 's1',
      iss: base(),
    });

    const plain = await raw(
      'GET',
      `/oauth/authorize?${query({ code_challenge: challenge, code_challenge_method: 'plain' })}`,
    );
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('never redirects to an unregistered redirect URI or for an unknown client', async () => {
    const clientId = await registerClient(['https://app.example/cb']);
    for (const query of [
      { client_id: clientId, redirect_uri: 'https://evil.example/cb' },
      { client_id: 'no-such-client', redirect_uri: 'https://app.example/cb' },
    ]) {
      const response = await raw(
        'GET',
        `/oauth/authorize?${new URLSearchParams({ response_type: 'code', ...query }).toString()}`,
      );
      expect(response.headers.get('location')).toMatch(new RegExp(`^${base()}/console/`));
      const check = await call('GET', `/v1/oauth/authorization-requests?${new URLSearchParams(query).toString()}`);
      expect(check.status).toBe(400);
      expect(check.body.error_message).toMatch(/cannot be trusted/);
      await expect(
        decide(
          alice.session,
          { ...query, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' },
          { approve: false },
        ),
      ).rejects.toThrow(/cannot be trusted/);
    }
  });

  it('answers Deny with access_denied, the state and the issuer', async () => {
    const redirectUri = 'https://app.example/cb';
    const clientId = await registerClient([redirectUri]);
    const denied = await decide(
      alice.session,
      {
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        state: 'xyz',
      },
      { approve: false },
    );
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'xyz',
      iss: base(),
    });
  });
});

describe('the token endpoint', () => {
  it('exchanges a code once for tokens that act on /mcp as the approved profile and scopes', async () => {
    const approved = await approvedCode(alice.session, choice());
    const exchanged = await exchange(approved, { resource: mcpResource() });
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    expect(exchanged.body).toEqual({
      access_token: expect.stringMatching(/^oat_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^ort_/),
      scope: 'posts:read posts:write',
    });
    const listed = await mcpInitialize(exchanged.body.access_token);
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).toContain('create_post');
    // Scopes narrow the tools as an API key's do.
    expect(text).not.toContain('follow_profile');
  });

  it('refuses a reused code and revokes what it gave', async () => {
    const approved = await approvedCode(alice.session, choice());
    const first = await exchange(approved);
    const second = await exchange(approved);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect((await mcpInitialize(first.body.access_token)).status).toBe(401);
  });

  it('refuses a wrong verifier, another client’s code and a redirect URI mismatch', async () => {
    const wrongVerifier = await exchange({
      ...(await approvedCode(alice.session, choice())),
      verifier: pkcePair().verifier,
    });
    expect(wrongVerifier.body.error).toBe('invalid_grant');

    const other = await registerClient(['http://127.0.0.1:9/callback']);
    const foreign = await exchange({ ...(await approvedCode(alice.session, choice())), clientId: other });
    expect(foreign.body.error).toBe('invalid_grant');

    const mismatch = await exchange({
      ...(await approvedCode(alice.session, choice())),
      redirectUri: 'http://127.0.0.1:9/other',
    });
    expect(mismatch.body.error).toBe('invalid_grant');

    const missing = await raw('POST', '/oauth/token', { form: { grant_type: 'authorization_code', code: 'x' } });
    expect(missing.body.error).toBe('invalid_request');
    const unknownGrant = await raw('POST', '/oauth/token', { form: { grant_type: 'password' } });
    expect(unknownGrant.body.error).toBe('unsupported_grant_type');
  });

  it('rotates refresh tokens, and a used one presented again revokes the grant', async () => {
    const tokens = await tokensFor();
    const rotated = await refresh(tokens.refresh_token, tokens.clientId);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpInitialize(rotated.body.access_token)).status).toBe(200);

    const replay = await refresh(tokens.refresh_token, tokens.clientId);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await mcpInitialize(rotated.body.access_token)).status).toBe(401);
    expect((await refresh(rotated.body.refresh_token, tokens.clientId)).body.error).toBe('invalid_grant');
  });

  it('revokes by RFC 7009: an access token alone, a refresh token with its grant', async () => {
    const tokens = await tokensFor();
    expect((await raw('POST', '/oauth/revoke', { form: { token: tokens.access_token } })).status).toBe(200);
    expect((await mcpInitialize(tokens.access_token)).status).toBe(401);
    const again = await refresh(tokens.refresh_token, tokens.clientId);
    expect(again.status).toBe(200);
    expect((await raw('POST', '/oauth/revoke', { form: { token: again.body.refresh_token } })).status).toBe(200);
    expect((await mcpInitialize(again.body.access_token)).status).toBe(401);
    expect((await raw('POST', '/oauth/revoke', { form: { token: 'not-a-token' } })).status).toBe(200);
  });
});

describe('tokens on the API', () => {
  it('binds a token to its resource: an /mcp token is refused on /v1 and an API token on /mcp', async () => {
    const mcpTokens = await tokensFor();
    const onApi = await call('GET', `/v1/profiles/${alice.profile.id}/posts`, { token: mcpTokens.access_token });
    expect(onApi.status).toBe(401);

    const apiTokens = await tokensFor(base());
    expect((await mcpInitialize(apiTokens.access_token)).status).toBe(401);
    const created = await call('POST', '/v1/posts', {
      token: apiTokens.access_token,
      profileId: alice.profile.id,
      body: { body: 'posted through OAuth' },
    });
    expect(ok(created, 201).post.body).toBe('posted through OAuth');
    // Only the approved profiles, only the approved scopes.
    const otherProfile = await createProfile(alice.session);
    const asOther = await call('POST', '/v1/posts', {
      token: apiTokens.access_token,
      profileId: otherProfile.id,
      body: { body: 'not allowed' },
    });
    expect(asOther.status).toBe(403);
    const follow = await call('POST', '/v1/profile-follows', {
      token: apiTokens.access_token,
      profileId: alice.profile.id,
      body: { followed_profile_id: otherProfile.id },
    });
    expect(follow.status).toBe(403);
    expect(follow.body.error_code).toBe('insufficient_scope');
  });

  it('counts an access token’s requests in its grant’s rate-limit window, as a key’s in its own', async () => {
    const tokens = await tokensFor(base());
    const read = () => call('GET', `/v1/profiles/${alice.profile.id}/posts`, { token: tokens.access_token });
    const first = await read();
    expect(first.headers.get('ratelimit-policy')).toMatch(/^"credential";/);
    const remaining = (response: typeof first) => Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]);
    // A refreshed token of the same grant counts in the same window.
    const refreshed = await refresh(tokens.refresh_token, tokens.clientId);
    const again = await call('GET', `/v1/profiles/${alice.profile.id}/posts`, {
      token: (refreshed.body as { access_token: string }).access_token,
    });
    expect(again.headers.get('ratelimit-policy')).toMatch(/^"credential";/);
    expect(remaining(again)).toBeLessThan(remaining(first));
  });

  it('stops a grant’s tokens at the next request once the grant is revoked in the console', async () => {
    const tokens = await tokensFor(base());
    const grants = ok(await call('GET', `/v1/workspaces/${alice.workspaceId}/oauth-grants`, { token: alice.session }));
    const grant = grants.items.find((g: { client_id: string }) => g.client_id === tokens.clientId);
    expect(grant).toMatchObject({
      client_name: 'Test agent',
      approved_by: { user_id: alice.user.user.id, email: alice.user.email },
      profile_ids: [alice.profile.id],
      scopes: ['posts:read', 'posts:write'],
    });
    ok(await call('DELETE', `/v1/workspaces/${alice.workspaceId}/oauth-grants/${grant.id}`, { token: alice.session }));
    const after = await call('GET', `/v1/posts/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
      token: tokens.access_token,
    });
    expect(after.status).toBe(401);
    const listed = ok(await call('GET', `/v1/workspaces/${alice.workspaceId}/oauth-grants`, { token: alice.session }));
    expect(listed.items.map((g: { id: string }) => g.id)).not.toContain(grant.id);
    expect((await call('GET', `/v1/workspaces/${alice.workspaceId}/oauth-grants`, { token: alice.key })).status).toBe(
      403,
    );
  });
});

describe('client metadata documents', () => {
  it('accepts a client_id that is the URL of its document (served from 127.0.0.1 under allow-local) and its redirect URIs only', async () => {
    const { createServer } = await import('node:http');
    let origin = '';
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        req.url === '/big.json'
          ? JSON.stringify({
              client_id: `${origin}/big.json`,
              redirect_uris: ['https://a.example/cb'],
              pad: 'x'.repeat(6000),
            })
          : JSON.stringify({
              client_id: `${origin}/client.json`,
              client_name: 'Doc Agent',
              redirect_uris: ['https://doc.example/cb'],
            }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const ask = (clientId: string, redirectUri: string) =>
        call(
          'GET',
          `/v1/oauth/authorization-requests?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }).toString()}`,
        );
      const ok200 = await ask(`${origin}/client.json`, 'https://doc.example/cb');
      expect(ok(ok200).client_name).toBe('Doc Agent');
      expect((await ask(`${origin}/client.json`, 'https://other.example/cb')).status).toBe(400);
      const big = await ask(`${origin}/big.json`, 'https://a.example/cb');
      expect(big.status).toBe(400);
      expect(big.body.error_message).toMatch(/larger than 5120 bytes/);
    } finally {
      server.close();
    }
  });
});

describe('the approver’s role', () => {
  /** A second person, admin of alice's workspace, who connects an app to it. */
  async function adminApproves() {
    const admin = await signUp();
    const members = `/v1/workspaces/${alice.workspaceId}/members`;
    ok(await call('POST', members, { token: alice.session, body: { email: admin.email, role: 'admin' } }), 201);
    const approved = await approvedCode(admin.token, choice(), { resource: base() });
    return { approved, member: `${members}/${admin.user.id}` };
  }
  const readAs = (token: string) => call('GET', `/v1/profiles/${alice.profile.id}/posts`, { token });

  it.each([
    [
      'demoted to member',
      (member: string) => call('PATCH', member, { token: alice.session, body: { role: 'member' } }),
    ],
    ['removed from the workspace', (member: string) => call('DELETE', member, { token: alice.session })],
  ])('stops the grant’s tokens at the next request once its approver is %s', async (_, takeAway) => {
    const { approved, member } = await adminApproves();
    const exchanged = await exchange(approved);
    expect(exchanged.status).toBe(200);
    const { access_token, refresh_token } = exchanged.body as { access_token: string; refresh_token: string };
    expect((await readAs(access_token)).status).toBe(200);

    ok(await takeAway(member));
    const after = await readAs(access_token);
    expect(after.status).toBe(401);
    expect(after.body.agent.hint).toMatch(/left the workspace or is no longer an owner or admin/);
    const refreshed = await refresh(refresh_token, approved.clientId);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    const listed = ok(await call('GET', `/v1/workspaces/${alice.workspaceId}/oauth-grants`, { token: alice.session }));
    expect(listed.items.map((g: { client_id: string }) => g.client_id)).not.toContain(approved.clientId);
  });

  it('refuses the code of an approver demoted before it was exchanged', async () => {
    const { approved, member } = await adminApproves();
    ok(await call('PATCH', member, { token: alice.session, body: { role: 'member' } }));
    const exchanged = await exchange(approved);
    expect(exchanged.status).toBe(400);
    expect(exchanged.body.error).toBe('invalid_grant');
    expect(exchanged.body.error_description).toMatch(/no longer an owner or admin/);
  });
});
