import { AppError } from '../../shared/errors.js';
import { mapLimit } from '../../shared/pipeline/concurrency.js';
import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseUrl } from '../../shared/http/public-url.js';
import { checkAuthorizationRequest } from '../../shared/oauth/authorization-request.js';
import { listWorkspaceProfiles } from '../../shared/store/profiles.js';
import { listMemberships } from '../../shared/store/workspaces.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

/** The consent page asks before it shows anything: an untrusted client or redirect URI is shown, never followed. */
const PROFILES_SHOWN = 100;
/** Workspaces read at once: a person may administer many. */
const WORKSPACES_AT_ONCE = 8;

export const handler = httpHandler(routes.getAuthorizationRequest, async ({ query, event, auth }) => {
  const checked = await checkAuthorizationRequest(query, publicBaseUrl(event));
  if (checked.kind === 'untrusted')
    throw new AppError('invalid_request', {
      message: `This sign-in request cannot be trusted: ${checked.reason}.`,
      hint: 'Start the connection again from the app; if it keeps failing, the app is misconfigured.',
    });
  if (checked.kind === 'refused')
    throw new AppError('invalid_request', { message: `The sign-in request is invalid: ${checked.description}.` });
  const { client, redirectUri, resource, scopes } = checked.request;
  return {
    client_id: client.client_id,
    client_name: client.client_name,
    redirect_uri: redirectUri,
    resource,
    scopes,
    workspaces: auth.principal?.kind === 'session' ? await approvableWorkspaces(auth.principal.userId) : [],
  };
});

/** Where a person may approve an app: the workspaces they own or administer, with their profiles. */
async function approvableWorkspaces(userId: string) {
  const managed = (await listMemberships(userId)).filter((m) => m.role !== 'member');
  return mapLimit(managed, WORKSPACES_AT_ONCE, async (m) => ({
    workspace_id: m.workspace_id,
    profiles: (await listWorkspaceProfiles(m.workspace_id, { limit: PROFILES_SHOWN })).items.map(
      ({ id, username, name }) => ({ id, username, name }),
    ),
  }));
}
