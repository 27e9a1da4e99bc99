/** The API key calls of the console, through the typed client. */
import { unwrap, type Schemas } from '@social-network/sdk';
import { api } from './session.js';

export type ApiKey = Schemas['ApiKey'];
export type ApiKeyInput = { name: string; scopes: ApiKey['scopes']; profile_ids: string[] };

const ws = (workspaceId: string) => ({ path: { workspace_id: workspaceId } });

export const apiKeys = {
  // A workspace has few keys: one page of the most the API lists at once is all of them in practice.
  list: (workspaceId: string) =>
    unwrap(
      api.GET('/v1/workspaces/{workspace_id}/api-keys', {
        params: { ...ws(workspaceId), query: { limit: 100 } },
      }),
    ),
  create: (workspaceId: string, body: ApiKeyInput) =>
    unwrap(api.POST('/v1/workspaces/{workspace_id}/api-keys', { params: ws(workspaceId), body })),
  revoke: (workspaceId: string, apiKeyId: string) =>
    unwrap(
      api.DELETE('/v1/workspaces/{workspace_id}/api-keys/{api_key_id}', {
        params: { path: { workspace_id: workspaceId, api_key_id: apiKeyId } },
      }),
    ),
};
