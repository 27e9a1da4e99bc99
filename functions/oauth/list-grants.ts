import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { presentOAuthGrant } from '../../shared/http/present/oauth.js';
import { listOAuthGrants } from '../../shared/store/oauth.js';
import { routes } from '../../shared/http/contract/routes/oauth.js';

export const handler = httpHandler(routes.listOAuthGrants, async ({ params, query, auth }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  const page = await listOAuthGrants(params.workspace_id, query);
  return { items: page.items.map(presentOAuthGrant), next_cursor: page.next_cursor };
});
