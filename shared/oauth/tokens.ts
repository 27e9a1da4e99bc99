/**
 * The token endpoint's grants and revocation (RFC 6749 §4.1.3 and §6 as OAuth 2.1 keeps them,
 * RFC 7009): a code becomes a grant with its first tokens once; a refresh token rotates once, and
 * a refresh token or code presented a second time revokes the whole grant (OAuth 2.1 §4.3.1,
 * §4.1.3: a replay means a token leaked).
 */
import { newId } from '../domain/ids.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  addSeconds,
  hashSecret,
  issueOAuthToken,
  parseOAuthToken,
  pkceMatches,
  REFRESH_TOKEN_TTL_SECONDS,
  tokenLive,
  type LiveAccessToken,
  type OAuthGrantRecord,
  type OAuthTokenRecord,
} from '../domain/oauth.js';
import { secretMatches } from '../domain/secret-tokens.js';
import {
  exchangeCode,
  getGrantAndToken,
  getOAuthCode,
  getOAuthGrant,
  revokeAccessToken,
  revokeOAuthGrant,
  rotateRefreshToken,
} from '../store/oauth.js';
import { OAuthError } from './errors.js';
import { audienceOf } from './metadata.js';

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
const approverGone = () =>
  invalidGrant(
    'The person who approved this app is no longer an owner or admin of the workspace, so the app was disconnected. Sign in again.',
  );

function required(fields: Record<string, string>, name: string): string {
  const value = fields[name];
  if (!value) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}

/**
 * A new access token and refresh token of `grant`: the access token as the grant keeps it, the
 * refresh token's record, and the answer that carries them.
 */
function newTokens(grant: Pick<OAuthGrantRecord, 'id' | 'scopes'>, now: Date) {
  const access = issueOAuthToken('oat', grant.id, newId());
  const refresh = issueOAuthToken('ort', grant.id, newId());
  const live: LiveAccessToken = {
    id: parseOAuthToken(access.token)!.tokenId,
    secret_hash: access.secretHash,
    expires_at: addSeconds(now, ACCESS_TOKEN_TTL_SECONDS),
  };
  const record: OAuthTokenRecord = {
    grant_id: grant.id,
    id: parseOAuthToken(refresh.token)!.tokenId,
    kind: 'refresh',
    secret_hash: refresh.secretHash,
    created_at: now.toISOString(),
    expires_at: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS),
    used_at: null,
  };
  return {
    access: live,
    refresh: record,
    answer: {
      access_token: access.token,
      token_type: 'Bearer' as const,
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refresh.token,
      scope: grant.scopes.join(' '),
    },
  };
}

function checkResource(fields: Record<string, string>, base: string, grant: Pick<OAuthGrantRecord, 'audience'>): void {
  if (fields.resource === undefined) return;
  if (audienceOf(fields.resource, base) !== grant.audience)
    throw new OAuthError('invalid_target', 'resource must be the one the authorization was given for');
}

export async function exchangeAuthorizationCode(
  fields: Record<string, string>,
  base: string,
  now: Date,
): Promise<TokenAnswer> {
  const codeText = required(fields, 'code');
  const verifier = required(fields, 'code_verifier');
  const clientId = required(fields, 'client_id');
  const redirectUri = required(fields, 'redirect_uri');
  const code = await getOAuthCode(hashSecret(codeText));
  if (!code) throw invalidGrant('The code is unknown.');
  if (code.grant_id !== null) {
    await revokeOAuthGrant(code.grant_id, now.toISOString());
    throw invalidGrant('The code was already used; the tokens issued for it are revoked.');
  }
  if (Date.parse(code.expires_at) <= now.getTime()) throw invalidGrant('The code has expired (codes live 60 seconds).');
  if (code.client_id !== clientId) throw invalidGrant('The code was issued to another client.');
  if (code.redirect_uri !== redirectUri) throw invalidGrant('redirect_uri differs from the authorization request’s.');
  if (!pkceMatches(verifier, code.code_challenge))
    throw invalidGrant('code_verifier does not match the code_challenge.');
  checkResource(fields, base, code);

  const at = now.toISOString();
  const grantId = newId();
  const tokens = newTokens({ id: grantId, scopes: code.scopes }, now);
  const grant: OAuthGrantRecord = {
    id: grantId,
    workspace_id: code.workspace_id,
    client_id: code.client_id,
    client_name: code.client_name,
    approved_by: { user_id: code.user_id, email: code.email },
    profile_ids: code.profile_ids,
    scopes: code.scopes,
    resource: code.resource,
    audience: code.audience,
    created_at: at,
    last_used_at: at,
    revoked_at: null,
    access_token: tokens.access,
  };
  const outcome = await exchangeCode(code, grant, tokens.refresh);
  if (outcome === 'used') throw invalidGrant('The code was already used.');
  if (outcome === 'approver_gone') throw approverGone();
  return tokens.answer;
}

export async function refreshTokens(fields: Record<string, string>, base: string, now: Date): Promise<TokenAnswer> {
  const parsed = parseOAuthToken(required(fields, 'refresh_token'));
  if (parsed?.kind !== 'ort') throw invalidGrant('The refresh token is not one this service issued.');
  const { grant, token } = await getGrantAndToken(parsed.grantId, parsed.tokenId);
  if (!grant || !token || !secretMatches(parsed.secret, token.secret_hash))
    throw invalidGrant('The refresh token is unknown.');
  if (fields.client_id !== undefined && fields.client_id !== grant.client_id)
    throw invalidGrant('The refresh token was issued to another client.');
  if (grant.revoked_at !== null) throw invalidGrant('The app was disconnected (its grant was revoked).');
  if (token.used_at !== null) {
    await revokeOAuthGrant(grant.id, now.toISOString());
    throw invalidGrant('The refresh token was already used; the grant is revoked. Sign in again.');
  }
  if (!tokenLive(token, now)) throw invalidGrant('The refresh token has expired; sign in again.');
  checkResource(fields, base, grant);
  const tokens = newTokens(grant, now);
  const outcome = await rotateRefreshToken(token, grant, now.toISOString(), tokens);
  if (outcome === 'approver_gone') {
    await revokeOAuthGrant(grant.id, now.toISOString());
    throw approverGone();
  }
  if (outcome === 'used') {
    await revokeOAuthGrant(grant.id, now.toISOString());
    throw invalidGrant('The refresh token was already used; the grant is revoked. Sign in again.');
  }
  if (outcome === 'revoked') throw invalidGrant('The app was disconnected (its grant was revoked).');
  return tokens.answer;
}

/**
 * RFC 7009: an access token is revoked alone; a refresh token takes its grant with it (§2.1: and
 * so every access token of it). Any other token gets the same answer.
 */
export async function revokeToken(fields: Record<string, string>, now: Date): Promise<void> {
  const parsed = parseOAuthToken(required(fields, 'token'));
  if (!parsed) return;
  const sentBy = (grant: OAuthGrantRecord) => fields.client_id === undefined || fields.client_id === grant.client_id;
  if (parsed.kind === 'oat') {
    const grant = await getOAuthGrant(parsed.grantId);
    const live = grant?.access_token;
    if (!grant || live?.id !== parsed.tokenId || !secretMatches(parsed.secret, live.secret_hash)) return;
    if (sentBy(grant)) await revokeAccessToken(grant.id, live);
    return;
  }
  const { grant, token } = await getGrantAndToken(parsed.grantId, parsed.tokenId);
  if (!grant || !token || !secretMatches(parsed.secret, token.secret_hash)) return;
  if (sentBy(grant)) await revokeOAuthGrant(grant.id, now.toISOString());
}
