import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { notFound } from '../../shared/http/contract/errors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentApiKey } from '../../shared/http/present/identity.js';
import { revokeApiKey } from '../../shared/store/api-keys.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.revokeApiKey, async ({ params, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const apiKey = await revokeApiKey(params.api_key_id, params.workspace_id, now.toISOString());
  if (!apiKey) throw notFound('API key');
  return { api_key: presentApiKey(apiKey) };
});
