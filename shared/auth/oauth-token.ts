import type { ApiKeyRecord } from '../domain/entities.js';
import { grantActive, parseOAuthToken, tokenLive, type Audience, type OAuthGrantRecord } from '../domain/oauth.js';
import { secretMatches } from '../domain/secret-tokens.js';
import { AppError } from '../errors.js';
import { getGrantForRequest } from '../store/oauth.js';
import type { ReadBatch } from '../store/read-batch.js';
import type { Principal } from './principal.js';

const unauthorized = (hint: string) => new AppError('unauthorized', { hint });

/** The grant seen as the API key it acts like: its workspace, its profiles, its scopes. */
const asApiKey = (grant: OAuthGrantRecord): ApiKeyRecord => ({
  id: grant.id,
  workspace_id: grant.workspace_id,
  name: grant.client_name,
  scopes: grant.scopes,
  profile_ids: grant.profile_ids,
  prefix: 'oat_',
  secret_hash: '',
  created_at: grant.created_at,
  revoked_at: grant.revoked_at,
});

/**
 * An OAuth access token's principal: one read of its grant, which keeps the live access token (an
 * item of the request's BatchGetItem when `reads` is given, as an API key is). Undefined when the bearer is not an
 * access token at all; 401 when it is one that does not act (unknown, expired, revoked, or issued
 * for the other resource).
 */
export async function resolveOAuthToken(
  bearer: string,
  now: Date,
  audience: Audience,
  reads?: ReadBatch,
): Promise<Principal | undefined> {
  const parsed = parseOAuthToken(bearer);
  if (parsed?.kind !== 'oat') return undefined;
  const grant = await getGrantForRequest(parsed.grantId, reads);
  const token = grant?.access_token;
  if (!grant || token?.id !== parsed.tokenId || !secretMatches(parsed.secret, token.secret_hash))
    throw unauthorized('The access token is unknown; sign in again through OAuth.');
  if (!grantActive(grant))
    throw unauthorized(
      'The app was disconnected: revoked in the console, or the person who approved it left the workspace or is no longer an owner or admin. Sign in again.',
    );
  if (!tokenLive(token, now)) throw unauthorized('The access token has expired; refresh it at POST /oauth/token.');
  if (grant.audience !== audience)
    throw unauthorized(
      audience === 'mcp'
        ? 'This access token was issued for the API, not for the MCP endpoint (its resource).'
        : 'This access token was issued for the MCP endpoint (its resource), not for the API.',
    );
  return {
    kind: 'api_key',
    workspaceId: grant.workspace_id,
    apiKey: asApiKey(grant),
    oauth: { grantId: grant.id, clientId: grant.client_id, clientName: grant.client_name },
  };
}
