import { requireMember } from '../../shared/auth/workspace-access.js';
import type { ProfileRecord } from '../../shared/domain/entities.js';
import { newId, nowIso } from '../../shared/domain/ids.js';
import { httpHandler } from '../../shared/http/handler.js';
import { present } from '../../shared/http/present.js';
import { attachProfileItem } from '../../shared/store/api-keys.js';
import { createProfile } from '../../shared/store/profiles.js';
import { getUser } from '../../shared/store/users.js';
import { routes } from './routes.js';
import { ApiError } from '../../shared/http/errors.js';

export const handler = httpHandler(routes.createProfile, async ({ body, auth }) => {
  const principal = auth.principal!;
  let workspaceId: string;
  if (principal.kind === 'api_key') {
    if (body.workspace_id && body.workspace_id !== principal.workspaceId) {
      throw new ApiError('forbidden', { message: 'An API key creates profiles only in its own workspace.', hint: 'Omit workspace_id when using an API key.' });
    }
    workspaceId = principal.workspaceId;
  } else {
    workspaceId = body.workspace_id ?? (await getUser(principal.userId))!.personal_workspace_id;
    await requireMember(principal, workspaceId);
  }

  const createdAt = nowIso();
  const profile: ProfileRecord = {
    id: newId(),
    workspace_id: workspaceId,
    username: body.username,
    type: body.type,
    name: body.name,
    call_name: body.call_name,
    legal_name_verified: false,
    occupation: null,
    location: null,
    bio: null,
    created_at: createdAt,
    updated_at: createdAt,
    media: { avatar: {}, banner: {} },
  };
  // A key that creates a profile can act as it straight away.
  await createProfile(profile, principal.kind === 'api_key' ? [attachProfileItem(principal.apiKey.id, profile.id)] : []);
  return present.profile(profile);
});
