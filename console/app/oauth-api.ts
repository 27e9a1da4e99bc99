/** The OAuth calls of the console (the consent page, connected apps), through the typed client. */
import { unwrap, type Schemas } from '@social-network/sdk';
import { api } from './session.js';

export type AuthorizationRequest = Schemas['OAuthAuthorizationRequest'];
export type ConnectedApp = Schemas['OAuthGrant'];

/** The authorization request's parameters, as /oauth/authorize received them. */
export type RequestParams = Record<string, string>;

export const oauth = {
  check: (request: RequestParams) =>
    unwrap(
      api.GET('/v1/oauth/authorization-requests', {
        params: { query: request as { client_id: string; redirect_uri: string } },
      }),
    ),
  decide: (
    request: RequestParams,
    choice: {
      approve: boolean;
      workspace_id?: string;
      profile_ids?: string[];
      scopes?: AuthorizationRequest['scopes'];
    },
  ) =>
    unwrap(
      api.POST('/v1/oauth/authorization-requests', {
        body: { request: request as { client_id: string; redirect_uri: string }, ...choice },
      }),
    ),
  apps: (workspaceId: string) =>
    unwrap(
      api.GET('/v1/workspaces/{workspace_id}/oauth-grants', {
        params: { path: { workspace_id: workspaceId }, query: { limit: 100 } },
      }),
    ),
  disconnect: (workspaceId: string, grantId: string) =>
    unwrap(
      api.DELETE('/v1/workspaces/{workspace_id}/oauth-grants/{grant_id}', {
        params: { path: { workspace_id: workspaceId, grant_id: grantId } },
      }),
    ),
};
