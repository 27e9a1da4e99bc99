import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { newApiKey } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import { issueToken, tokenPrefix } from '../../shared/domain/secret-tokens.js';
import { ApiError } from '../../shared/http/contract/errors.js';
import { httpHandler, withHint } from '../../shared/http/handler.js';
import { presentApiKey } from '../../shared/http/present/identity.js';
import { putApiKey } from '../../shared/store/api-keys.js';
import { getProfiles } from '../../shared/store/profiles.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.createApiKey, async ({ params, body, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const profiles = await getProfiles(body.profile_ids);
  const foreign = body.profile_ids.filter((id) => profiles.get(id)?.workspace_id !== params.workspace_id);
  if (foreign.length > 0) {
    // Unknown ids and other workspaces' ids answer alike, so nothing about other workspaces leaks.
    throw new ApiError('forbidden', {
      message: 'Every profile_ids entry must be a profile of this workspace.',
      hint: `body.profile_ids: ${foreign.length} of the ids are not profiles of this workspace; create profiles in it with POST /v1/profiles.`,
    });
  }
  const id = newId();
  const { token, secretHash } = issueToken('sk', id);
  const apiKey = newApiKey(now, {
    id,
    workspace_id: params.workspace_id,
    name: body.name,
    scopes: body.scopes,
    profile_ids: body.profile_ids,
    prefix: tokenPrefix(token),
    secret_hash: secretHash,
  });
  await putApiKey(apiKey);
  return withHint(
    { api_key: presentApiKey(apiKey), key: token },
    'Store the key now: it is shown only in this response.',
  );
});
