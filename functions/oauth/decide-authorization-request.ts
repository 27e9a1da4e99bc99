import { auditTarget } from '../../shared/audit/write-context.js';
import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { addSeconds, CODE_TTL_SECONDS, newCode } from '../../shared/domain/oauth.js';
import { AppError } from '../../shared/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { checkAuthorizationRequest, clientRedirect } from '../../shared/oauth/authorization-request.js';
import { putOAuthCode } from '../../shared/store/oauth.js';
import { getProfiles } from '../../shared/store/profiles.js';
import { getUser } from '../../shared/store/users.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

const invalid = (message: string) => new AppError('invalid_request', { message });

/**
 * Approve or Deny on the consent page. Approving: an owner or admin of the chosen workspace, its
 * profiles, and scopes among the requested ones, into a code bound to the client, the redirect
 * URI, the PKCE challenge and the resource.
 */
export const handler = httpHandler(routes.decideAuthorizationRequest, async ({ body, auth, event, now }) => {
  const base = publicBaseUrl(event);
  const checked = await checkAuthorizationRequest(body.request, base);
  if (checked.kind === 'untrusted') throw invalid(`This sign-in request cannot be trusted: ${checked.reason}.`);
  if (checked.kind === 'refused')
    return {
      redirect_to: clientRedirect(checked.redirectUri, base, {
        error: checked.error,
        error_description: checked.description,
        state: checked.state,
      }),
    };
  const request = checked.request;
  if (!body.approve)
    return {
      redirect_to: clientRedirect(request.redirectUri, base, {
        error: 'access_denied',
        error_description: 'The person denied the request.',
        state: request.state,
      }),
    };

  if (!body.workspace_id) throw invalid('Choose the workspace the app may act in (workspace_id).');
  const [, user, profiles] = await Promise.all([
    requireOwnerOrAdmin(auth.principal, body.workspace_id),
    getUser(auth.principal.userId),
    getProfiles(body.profile_ids),
  ]);
  const foreign = body.profile_ids.filter((id) => profiles.get(id)?.workspace_id !== body.workspace_id);
  if (foreign.length > 0)
    throw new AppError('forbidden', { message: 'Every profile_ids entry must be a profile of the chosen workspace.' });
  const scopes = [...new Set(body.scopes)];
  if (scopes.length === 0) throw invalid('Grant at least one scope.');
  const extra = scopes.filter((s) => !request.scopes.includes(s));
  if (extra.length > 0) throw invalid(`The app did not ask for: ${extra.join(', ')}.`);
  if (!user) throw new AppError('unauthorized');

  const { code, hash } = newCode();
  auditTarget({ type: 'oauth_client', id: request.client.client_id });
  await putOAuthCode({
    code_hash: hash,
    client_id: request.client.client_id,
    client_name: request.client.client_name,
    redirect_uri: request.redirectUri,
    code_challenge: request.challenge,
    resource: request.resource,
    audience: request.audience,
    workspace_id: body.workspace_id,
    user_id: user.id,
    email: user.email,
    profile_ids: [...new Set(body.profile_ids)],
    scopes,
    created_at: now.toISOString(),
    expires_at: addSeconds(now, CODE_TTL_SECONDS),
    grant_id: null,
  });
  return { redirect_to: clientRedirect(request.redirectUri, base, { code, state: request.state }) };
});
