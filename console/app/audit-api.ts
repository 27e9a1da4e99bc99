/** The audit log's call of the console, through the typed client. */
import { unwrap, type Schemas } from '@social-network/sdk';
import { api } from './session.js';

export type AuditEntry = Schemas['AuditEntry'];
export type AuditActorKind = AuditEntry['actor']['kind'];

export interface AuditFilters {
  actor_kind?: AuditActorKind | undefined;
  action?: string | undefined;
}

export const audit = {
  list: (workspaceId: string, filters: AuditFilters, page: { limit: number; cursor?: string | undefined }) =>
    unwrap(
      api.GET('/v1/workspaces/{workspace_id}/audit-log', {
        params: { path: { workspace_id: workspaceId }, query: { ...filters, ...page } },
      }),
    ),
};
