/** The audit log as a test reads it: the entries of a workspace, and the one a request left. */
import { call } from './api.js';
import { waitFor } from './webhooks.js';

export interface ListedEntry {
  id: string;
  at: string;
  actor: { kind: string; user_id?: string; api_key_id?: string; oauth_grant_id?: string; client_name?: string };
  acting_profile_id: string | null;
  action: string;
  target: { type: string; id: string };
  ip_prefix: string | null;
  request_id: string;
}

export async function auditLog(session: string, workspaceId: string, query = ''): Promise<ListedEntry[]> {
  const response = await call('GET', `/v1/workspaces/${workspaceId}/audit-log?limit=100${query}`, { token: session });
  if (response.status !== 200) throw new Error(`audit log: ${response.status}`);
  return (response.body.data as { items: ListedEntry[] }).items;
}

/** The entries of the request `requestId`, once listed. */
export const entriesOf = (session: string, workspaceId: string, requestId: string) =>
  waitFor(`the audit entry of request ${requestId}`, async () => {
    const entries = (await auditLog(session, workspaceId)).filter((e) => e.request_id === requestId);
    return entries.length > 0 ? entries : undefined;
  });
