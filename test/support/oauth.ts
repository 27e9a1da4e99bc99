/** OAuth 2.1 by hand, as a client would speak it: PKCE pairs, registrations, the consent call, the token endpoint. */
import { createHash, randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { call } from './api.js';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizationParams {
  client_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: string;
  state?: string;
  scope?: string;
  resource?: string;
  response_type?: string;
}

export interface Approved {
  clientId: string;
  redirectUri: string;
  verifier: string;
  code: string;
}

/**
 * The flow's steps against one server: the test run's (no argument), or the one at `server` (a
 * benchmark's, outside vitest).
 */
export function oauthFlow(server?: string) {
  const base = () => (server ?? inject('baseUrl')).replace(/\/+$/, '');
  const mcpResource = () => `${base()}/mcp`;

  /** A raw request to the server: status, headers and the body as JSON (or text). */
  async function raw(
    method: string,
    path: string,
    options: { form?: Record<string, string>; json?: unknown; token?: string } = {},
  ): Promise<{ status: number; headers: Headers; body: any }> {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${base()}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (a redirect's empty body): kept as text.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  async function registerClient(redirectUris: string[], name = 'Test agent'): Promise<string> {
    const registered = await raw('POST', '/oauth/register', {
      json: { redirect_uris: redirectUris, client_name: name, token_endpoint_auth_method: 'none' },
    });
    if (registered.status !== 201) throw new Error(`registration failed: ${JSON.stringify(registered.body)}`);
    return registered.body.client_id as string;
  }

  /** The consent page's Approve (or Deny) as its API call; the URL the browser would go to. */
  async function decide(
    sessionToken: string,
    request: AuthorizationParams,
    choice: { approve: boolean; workspace_id?: string; profile_ids?: string[]; scopes?: string[] },
  ): Promise<URL> {
    const decided = await call('POST', '/v1/oauth/authorization-requests', {
      token: sessionToken,
      body: { request: { response_type: 'code', ...request }, ...choice },
      // The test run's server is the default, and there the contract check sees the answer.
      ...(server ? { baseUrl: base() } : {}),
    });
    if (decided.status !== 200) throw new Error(`decision failed: ${JSON.stringify(decided.body)}`);
    return new URL(decided.body.data.redirect_to as string);
  }

  /** A registered client and an approved code for it, as the consent page would give it. */
  async function approvedCode(
    sessionToken: string,
    choice: { workspace_id: string; profile_ids: string[]; scopes: string[] },
    options: { resource?: string; redirectUri?: string; clientId?: string } = {},
  ): Promise<Approved> {
    const redirectUri = options.redirectUri ?? 'http://127.0.0.1:9/callback';
    const clientId = options.clientId ?? (await registerClient([redirectUri]));
    const { verifier, challenge } = pkcePair();
    const redirected = await decide(
      sessionToken,
      {
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'st4te',
        scope: choice.scopes.join(' '),
        resource: options.resource ?? mcpResource(),
      },
      { approve: true, ...choice },
    );
    const code = redirected.searchParams.get('code');
    if (!code) throw new Error(`no code in ${redirected.href}`);
    return { clientId, redirectUri, verifier, code };
  }

  const exchange = (approved: Approved, extra: Record<string, string> = {}) =>
    raw('POST', '/oauth/token', {
      form: {
        grant_type: 'authorization_code',
        code: approved.code,
        code_verifier: approved.verifier,
        client_id: approved.clientId,
        redirect_uri: approved.redirectUri,
        ...extra,
      },
    });

  const refresh = (refreshToken: string, clientId: string) =>
    raw('POST', '/oauth/token', {
      form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId },
    });

  return { base, mcpResource, raw, registerClient, decide, approvedCode, exchange, refresh };
}

export const { base, mcpResource, raw, registerClient, decide, approvedCode, exchange, refresh } = oauthFlow();
