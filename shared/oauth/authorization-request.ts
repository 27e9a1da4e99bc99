/**
 * An authorization request (`GET /oauth/authorize`'s query) checked as OAuth 2.1 §4.1.2.1 orders:
 * a bad client or redirect URI is shown to the person and never redirected to; any other problem
 * goes back to the client's redirect URI as an error.
 */
import { redirectUriRegistered, requestedScopes, validChallenge, type Audience } from '../domain/oauth.js';
import type { Scope } from '../domain/scopes.js';
import type { DocumentFetcher } from '../ports/document-fetcher.js';
import { lookUpClient, type OAuthClient } from './clients.js';
import type { OAuthErrorCode } from './errors.js';
import { audienceOf, resourceUrl } from './metadata.js';

export interface AuthorizationRequest {
  response_type?: string | undefined;
  client_id: string;
  redirect_uri: string;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
  state?: string | undefined;
  scope?: string | undefined;
  resource?: string | undefined;
}

export interface ValidRequest {
  client: OAuthClient;
  redirectUri: string;
  challenge: string;
  audience: Audience;
  resource: string;
  scopes: Scope[];
  state: string | undefined;
}

export type CheckedRequest =
  | { kind: 'valid'; request: ValidRequest }
  /** Shown on the page: the client or its redirect URI cannot be trusted with a redirect. */
  | { kind: 'untrusted'; reason: string }
  /** Sent back to the (trusted) redirect URI. */
  | { kind: 'refused'; redirectUri: string; state: string | undefined; error: OAuthErrorCode; description: string };

export async function checkAuthorizationRequest(
  query: Partial<AuthorizationRequest>,
  base: string,
  fetcher?: DocumentFetcher,
): Promise<CheckedRequest> {
  if (!query.client_id) return { kind: 'untrusted', reason: 'client_id is missing' };
  if (!query.redirect_uri) return { kind: 'untrusted', reason: 'redirect_uri is missing' };
  const found = await lookUpClient(query.client_id, fetcher);
  if (!found.ok) return { kind: 'untrusted', reason: found.reason };
  if (!redirectUriRegistered(query.redirect_uri, found.client.redirect_uris))
    return { kind: 'untrusted', reason: 'redirect_uri is not one of the client’s registered redirect URIs' };

  const refuse = (error: OAuthErrorCode, description: string): CheckedRequest => ({
    kind: 'refused',
    redirectUri: query.redirect_uri!,
    state: query.state,
    error,
    description,
  });
  if (query.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
  if (!query.code_challenge) return refuse('invalid_request', 'code_challenge is required (PKCE, S256)');
  if (query.code_challenge_method !== 'S256')
    return refuse('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
  if (!validChallenge(query.code_challenge))
    return refuse(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)',
    );
  const audience = audienceOf(query.resource, base);
  if (!audience)
    return refuse('invalid_target', `resource must be ${resourceUrl(base, 'mcp')} or ${resourceUrl(base, 'api')}`);
  const scopes = requestedScopes(query.scope);
  if (scopes.length === 0) return refuse('invalid_scope', 'scope names none of the scopes this service grants');
  return {
    kind: 'valid',
    request: {
      client: found.client,
      redirectUri: query.redirect_uri,
      challenge: query.code_challenge,
      audience,
      resource: resourceUrl(base, audience),
      scopes,
      state: query.state,
    },
  };
}

/** The redirect URI with the answer's parameters added (RFC 9207: `iss` on every answer). */
export function clientRedirect(redirectUri: string, base: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, iss: base }))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}
