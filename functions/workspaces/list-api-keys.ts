import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentApiKey } from '../../shared/http/present/identity.js';
import { listApiKeys } from '../../shared/store/api-keys.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';

export const handler = httpHandler(routes.listApiKeys, async ({ params, query, auth }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const page = await listApiKeys(params.workspace_id, query);
  return { items: page.items.map(presentApiKey), next_cursor: page.next_cursor };
});
