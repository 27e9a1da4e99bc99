import { requireMember } from '../../shared/auth/workspace-access.js';
import { newProfile } from '../../shared/domain/entities.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentProfile } from '../../shared/http/present/profiles.js';
import { attachProfileItem } from '../../shared/store/api-keys.js';
import { attachProfileToGrantItem } from '../../shared/store/oauth.js';
import { createProfile } from '../../shared/store/profiles.js';
import { getUser } from '../../shared/store/users.js';
import { routes } from '../../shared/http/contract/routes/profiles.js';
import { ApiError } from '../../shared/http/contract/errors.js';

export const handler = httpHandler(routes.createProfile, async ({ body, auth, now }) => {
  const principal = auth.principal;
  let workspaceId: string;
  if (principal.kind === 'api_key') {
    if (body.workspace_id && body.workspace_id !== principal.workspaceId) {
      throw new ApiError('forbidden', {
        message: 'An API key creates profiles only in its own workspace.',
        hint: 'Omit workspace_id when using an API key.',
      });
    }
    workspaceId = principal.workspaceId;
  } else {
    workspaceId = body.workspace_id ?? (await getUser(principal.userId))!.personal_workspace_id;
    await requireMember(principal, workspaceId);
  }

  const profile = newProfile(now, { ...body, workspace_id: workspaceId });
  // A key (or an OAuth grant) that creates a profile can act as it straight away.
  await createProfile(
    profile,
    principal.kind !== 'api_key'
      ? []
      : principal.oauth
        ? [attachProfileToGrantItem(principal.oauth.grantId, profile.id)]
        : [attachProfileItem(principal.apiKey.id, profile.id)],
  );
  return presentProfile(profile);
});
