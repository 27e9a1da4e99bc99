import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { notFound } from '../../shared/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { getOAuthGrant, revokeOAuthGrant } from '../../shared/store/oauth.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

export const handler = httpHandler(routes.revokeOAuthGrant, async ({ params, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  if (await revokeOAuthGrant(params.grant_id, now.toISOString(), params.workspace_id))
    return { revoked: true as const };
  // Revoking again is harmless; another workspace's grant is not found, as an unknown one.
  const grant = await getOAuthGrant(params.grant_id);
  if (grant?.workspace_id !== params.workspace_id) throw notFound('Connected app');
  return { revoked: true as const };
});
