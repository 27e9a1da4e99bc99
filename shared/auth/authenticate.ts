import { hasScope, type RequiredScope } from '../domain/scopes.js';
import { parseToken, secretMatches } from '../domain/secret-tokens.js';
import type { Audience } from '../domain/oauth.js';
import { AppError } from '../errors.js';
import { getApiKey } from '../store/api-keys.js';
import type { ReadBatch } from '../store/read-batch.js';
import { getSession } from '../store/sessions.js';
import { resolveOAuthToken } from './oauth-token.js';
import type { AuthKind, Principal } from './principal.js';

const unauthorized = (hint: string) => new AppError('unauthorized', { hint });

/** Whether the request carries an `Authorization` header to resolve at all. */
export const sentCredential = (authorization: string | undefined): authorization is string =>
  authorization !== undefined && authorization !== '';

/**
 * Resolves `Authorization: Bearer …` to a principal; undefined when no credential was sent. An
 * OAuth access token is accepted only by the resource it was issued for (`audience`: the API's
 * routes, or the MCP endpoint and the tool calls it makes).
 */
export async function resolvePrincipal(
  authorization: string | undefined,
  now: Date,
  reads?: ReadBatch,
  audience: Audience = 'api',
): Promise<Principal | undefined> {
  if (!sentCredential(authorization)) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!match) throw unauthorized('Send the credential as "Authorization: Bearer <token>".');
  const oauth = await resolveOAuthToken(match[1]!, now, audience, reads);
  if (oauth) return oauth;
  const token = parseToken(match[1]!);
  if (!token)
    throw unauthorized('The bearer token is not a session token (st_…) or an API key (sk_…) issued by this service.');

  if (token.kind === 'st') {
    const session = await getSession(token.id, reads);
    if (!session || !secretMatches(token.secret, session.secret_hash)) {
      throw unauthorized(
        'The session token is unknown or was logged out; create a new session with POST /v1/sessions.',
      );
    }
    if (Date.parse(session.expires_at) <= now.getTime()) {
      throw unauthorized('The session has expired; create a new session with POST /v1/sessions.');
    }
    return { kind: 'session', userId: session.user_id, session };
  }

  const apiKey = await getApiKey(token.id, reads);
  if (!apiKey || !secretMatches(token.secret, apiKey.secret_hash)) {
    throw unauthorized('The API key is unknown; create one with POST /v1/workspaces/{workspace_id}/api-keys.');
  }
  if (apiKey.revoked_at) throw unauthorized('The API key was revoked; create a new one.');
  return { kind: 'api_key', workspaceId: apiKey.workspace_id, apiKey };
}

/** The route's credential rule, applied to the resolved principal. */
export function authorizeRoute(
  principal: Principal | undefined,
  auth: AuthKind,
  scope: RequiredScope | undefined,
): void {
  if (auth === 'none') return;
  if (!principal) {
    throw unauthorized(
      auth === 'session'
        ? 'This operation needs a session token: POST /v1/sessions, then "Authorization: Bearer st_…".'
        : 'Send a session token or an API key as "Authorization: Bearer <token>".',
    );
  }
  if (principal.kind !== 'api_key') return;
  if (auth === 'session') {
    throw new AppError('session_required', {
      hint: 'Log in as a workspace owner or admin and use the session token (st_…) instead of an API key.',
    });
  }
  if (scope && !hasScope(principal.apiKey.scopes, scope)) {
    const [resource, action] = scope.split(':');
    throw new AppError('insufficient_scope', {
      message: `The API key lacks the ${scope} scope.`,
      hint: `Use a key with one of: ${scope}, ${resource}:all, all:${action}, all:all.`,
    });
  }
}
