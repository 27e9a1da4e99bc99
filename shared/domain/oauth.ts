/**
 * OAuth 2.1 for agents (API.md "Agents sign in with OAuth 2.1"): the records of the service's own
 * authorization server and its rules, with no AWS and no HTTP. Clients register (RFC 7591) or
 * name a metadata document; a person approves a request into a one-time code; the code becomes a
 * grant with rotating tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SCOPES, type Scope } from './scopes.js';

/** Seconds an authorization code lives. */
export const CODE_TTL_SECONDS = 60;
/** Seconds an access token lives. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Seconds a refresh token lives (each refresh issues a new one). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;

/** What a token was issued for: the MCP endpoint or the API itself (RFC 8707 `resource`). */
export type Audience = 'mcp' | 'api';

/** A client registered by Dynamic Client Registration (public: no secret). */
export interface OAuthClientRecord {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  created_at: string;
}

/** What a person approved, waiting to be exchanged once for tokens. */
export interface OAuthCodeRecord {
  /** SHA-256 of the code: the code itself is never stored. */
  code_hash: string;
  client_id: string;
  client_name: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  audience: Audience;
  workspace_id: string;
  user_id: string;
  email: string;
  profile_ids: string[];
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  /** The grant the code became, once it was exchanged (a second exchange revokes that grant). */
  grant_id: string | null;
}

/**
 * The grant's live access token, the last one issued (a refresh replaces it): kept on the grant,
 * so that a request reads its credential as one item, as an API key's; only its secret's hash.
 */
export interface LiveAccessToken {
  id: string;
  secret_hash: string;
  expires_at: string;
}

/** A connected app: what one person approved for one client, until revoked. */
export interface OAuthGrantRecord {
  id: string;
  workspace_id: string;
  client_id: string;
  client_name: string;
  approved_by: { user_id: string; email: string };
  profile_ids: string[];
  scopes: Scope[];
  resource: string;
  audience: Audience;
  created_at: string;
  /** When the client last obtained tokens (the code exchange or a refresh). */
  last_used_at: string;
  revoked_at: string | null;
  /** Null once revoked alone (RFC 7009). */
  access_token: LiveAccessToken | null;
}

/** A refresh token of a grant; only the hash of its secret is kept. */
export interface OAuthTokenRecord {
  grant_id: string;
  id: string;
  kind: 'refresh';
  secret_hash: string;
  created_at: string;
  expires_at: string;
  /** Refresh tokens: when it was exchanged (presenting it again revokes the grant). */
  used_at: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const randomSecret = () => randomBytes(32).toString('base64url');

export const hashSecret = sha256;

/** A new authorization code (43 characters) and the hash it is stored under. */
export function newCode(): { code: string; hash: string } {
  const code = randomSecret();
  return { code, hash: sha256(code) };
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) must equal the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  return /^[A-Za-z0-9._~-]{43,128}$/.test(verifier) && sha256(verifier) === challenge;
}

/** A S256 challenge is the base64url of 32 bytes. */
export const validChallenge = (challenge: string) => /^[A-Za-z0-9_-]{43}$/.test(challenge);

/**
 * Tokens are `oat_<grant>_<token>_<secret>` (access) and `ort_<grant>_<token>_<secret>` (refresh):
 * the ids find the grant and the token in one read, and only a hash of the secret is stored.
 */
export type OAuthTokenKind = 'oat' | 'ort';

export interface ParsedOAuthToken {
  kind: OAuthTokenKind;
  grantId: string;
  tokenId: string;
  secret: string;
}

const hex = (id: string) => id.replaceAll('-', '');
const uuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

export function issueOAuthToken(
  kind: OAuthTokenKind,
  grantId: string,
  tokenId: string,
): { token: string; secretHash: string } {
  const secret = randomSecret();
  return { token: `${kind}_${hex(grantId)}_${hex(tokenId)}_${secret}`, secretHash: sha256(secret) };
}

const OAUTH_TOKEN = /^(oat|ort)_([0-9a-f]{32})_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export function parseOAuthToken(token: string): ParsedOAuthToken | undefined {
  const [, kind, grant, id, secret] = OAUTH_TOKEN.exec(token) ?? [];
  if ((kind !== 'oat' && kind !== 'ort') || !grant || !id || !secret) return undefined;
  return { kind, grantId: uuid(grant), tokenId: uuid(id), secret };
}

/** Whether a bearer token looks like an OAuth access token (an MCP 401 then sends the client to refresh). */
export const isOAuthAccessToken = (token: string) => token.startsWith('oat_');

/**
 * The scopes of a `scope` parameter that this service knows, in order, each once. No `scope`
 * asks for every scope; the person still chooses which to grant.
 */
export function requestedScopes(scope: string | undefined): Scope[] {
  if (scope === undefined || scope.trim() === '') return [...SCOPES];
  const known = new Set<string>(SCOPES);
  return [...new Set(scope.split(/\s+/).filter((s) => known.has(s)))] as Scope[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * A redirect URI a public client may register (OAuth 2.1 §2.3.1, §7.5.1): absolute, no fragment,
 * https, or http on a loopback address (native apps' and local tools' callbacks). A custom scheme
 * (`vscode://…`, `cursor://…`) is allowed too: native clients receive the code that way.
 */
export function redirectUriProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${raw} is not an absolute URI`;
  }
  if (raw.includes('#')) return `${raw} has a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return LOOPBACK_HOSTS.has(url.hostname) ? undefined : `${raw} uses http on a host that is not a loopback address`;
  if (/^(javascript|data|file|vbscript):$/.test(url.protocol)) return `${raw} uses the ${url.protocol} scheme`;
  return undefined;
}

/**
 * Whether `used` is one of the registered redirect URIs: exact string match, except that the port
 * of a loopback http URI may differ (RFC 8252 §7.3: native apps pick a free port at run time).
 */
export function redirectUriRegistered(used: string, registered: readonly string[]): boolean {
  if (registered.includes(used)) return true;
  let url: URL;
  try {
    url = new URL(used);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  const portless = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((r) => {
    try {
      return portless(new URL(r)) === portless(url);
    } catch {
      return false;
    }
  });
}

/** A client id that names a metadata document (draft-ietf-oauth-client-id-metadata-document): a URL with a path. */
export const isMetadataDocumentClientId = (clientId: string) => /^https?:\/\/[^/]+\/./.test(clientId);

/** Whether a grant's tokens still act: not revoked. */
export const grantActive = (grant: Pick<OAuthGrantRecord, 'revoked_at'>) => grant.revoked_at === null;

/** Whether a token is still within its lifetime at `now`. */
export const tokenLive = (token: Pick<OAuthTokenRecord, 'expires_at'>, now: Date) =>
  Date.parse(token.expires_at) > now.getTime();

export const addSeconds = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
