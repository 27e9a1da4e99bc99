import { requireOwnerOrAdmin } from '../../shared/auth/workspace-access.js';
import { httpHandler } from '../../shared/http/handler.js';
import { routes } from '../../shared/http/contract/routes/workspaces.js';
import { listAuditEntries } from '../../shared/store/audit-log.js';

export const handler = httpHandler(routes.listAuditLog, async ({ params, query, auth, now }) => {
  await requireOwnerOrAdmin(auth.principal, params.workspace_id);
  return listAuditEntries(
    params.workspace_id,
    { actorKind: query.actor_kind, action: query.action, limit: query.limit, cursor: query.cursor },
    now,
  );
});
