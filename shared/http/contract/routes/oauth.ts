/**
 * OAuth 2.1 (API.md "Agents sign in with OAuth 2.1"): discovery, clients, the authorization code
 * flow and the tokens, answering the shapes their RFCs define (`raw`), then the consent page's
 * calls and a workspace's connected apps in the envelope.
 */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { PageQuery, page } from '../schemas/common.js';
import { WorkspaceParams } from '../schemas/identity.js';
import {
  AuthorizationDecision,
  AuthorizationDecisionBody,
  AuthorizationRequestInfo,
  AuthorizationRequestQuery,
  AuthorizationServerMetadata,
  ClientRegistration,
  OAuthGrant,
  OAuthGrantParams,
  ProtectedResourceMetadata,
  TokenResponse,
} from '../schemas/oauth.js';

const TAG = 'OAuth';

export const routes = {
  getMcpResourceMetadata: defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource/mcp',
    handler: 'oauth/get-mcp-resource-metadata',
    tag: TAG,
    summary: 'RFC 9728 metadata of the MCP endpoint (plain JSON): where MCP clients start signing in.',
    auth: 'none',
    status: 200,
    raw: true,
    response: ProtectedResourceMetadata,
    errors: [],
    mcp: false,
  }),
  getApiResourceMetadata: defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-protected-resource',
    handler: 'oauth/get-api-resource-metadata',
    tag: TAG,
    summary: 'RFC 9728 metadata of the API itself (plain JSON).',
    auth: 'none',
    status: 200,
    raw: true,
    response: ProtectedResourceMetadata,
    errors: [],
    mcp: false,
  }),
  getAuthorizationServerMetadata: defineRoute({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    handler: 'oauth/get-authorization-server-metadata',
    tag: TAG,
    summary: 'RFC 8414 authorization server metadata (plain JSON).',
    auth: 'none',
    status: 200,
    raw: true,
    response: AuthorizationServerMetadata,
    errors: [],
    mcp: false,
  }),
  registerOAuthClient: defineRoute({
    method: 'POST',
    path: '/oauth/register',
    handler: 'oauth/register-client',
    tag: TAG,
    summary: 'Dynamic Client Registration (RFC 7591) of a public client.',
    description:
      'A JSON body with `redirect_uris` (https, or http on a loopback address; no fragment), `client_name` and ' +
      '`token_endpoint_auth_method: "none"`. Errors are RFC 7591 `{ error, error_description }`.',
    auth: 'none',
    status: 201,
    raw: true,
    response: ClientRegistration,
    errors: [],
    mcp: false,
  }),
  authorize: defineRoute({
    method: 'GET',
    path: '/oauth/authorize',
    handler: 'oauth/authorize',
    tag: TAG,
    summary: 'The authorization endpoint: answers 302 to the console’s consent page with the request’s parameters.',
    description:
      'Query: `response_type=code`, `client_id`, `redirect_uri`, `code_challenge`, `code_challenge_method=S256`, ' +
      '`state`, `scope`, `resource`. The page signs the person in, lets them choose a workspace, profiles and ' +
      'scopes, and sends the browser back to `redirect_uri` with `code`, `state` and `iss` (or `error`).',
    auth: 'none',
    status: 200,
    raw: true,
    response: z.unknown().meta({ description: 'A redirect (302) to /console/#/oauth/authorize?….' }),
    errors: [],
    mcp: false,
  }),
  issueOAuthToken: defineRoute({
    method: 'POST',
    path: '/oauth/token',
    handler: 'oauth/token',
    tag: TAG,
    summary: 'The token endpoint (form-encoded): authorization_code with code_verifier, or refresh_token.',
    description:
      'Errors are RFC 6749 `{ error, error_description }`; answers carry `Cache-Control: no-store`. A refresh ' +
      'token works once: presenting it again revokes the whole grant.',
    auth: 'none',
    status: 200,
    raw: true,
    response: TokenResponse,
    errors: [],
    mcp: false,
  }),
  revokeOAuthToken: defineRoute({
    method: 'POST',
    path: '/oauth/revoke',
    handler: 'oauth/revoke',
    tag: TAG,
    summary: 'Token revocation (RFC 7009, form-encoded `token`): revokes the grant the token belongs to.',
    auth: 'none',
    status: 200,
    raw: true,
    response: z.object({}),
    errors: [],
    mcp: false,
  }),
  getAuthorizationRequest: defineRoute({
    method: 'GET',
    path: '/v1/oauth/authorization-requests',
    handler: 'oauth/get-authorization-request',
    tag: TAG,
    summary: 'The consent page’s check of an authorization request: the client, and the scopes it asks for.',
    auth: 'none',
    query: AuthorizationRequestQuery,
    status: 200,
    response: AuthorizationRequestInfo,
    errors: [],
    mcp: false,
  }),
  decideAuthorizationRequest: defineRoute({
    method: 'POST',
    path: '/v1/oauth/authorization-requests',
    handler: 'oauth/decide-authorization-request',
    tag: TAG,
    summary: 'The consent page’s Approve or Deny: where to send the browser (the client, with a code or an error).',
    description:
      'Approving needs an owner or admin of the chosen workspace; the profiles must be the workspace’s and the ' +
      'scopes among the requested ones.',
    auth: 'session',
    body: AuthorizationDecisionBody,
    status: 200,
    response: AuthorizationDecision,
    errors: ['forbidden'],
  }),
  listOAuthGrants: defineRoute({
    method: 'GET',
    path: '/v1/workspaces/{workspace_id}/oauth-grants',
    handler: 'oauth/list-grants',
    tag: TAG,
    summary: 'Lists the workspace’s connected apps (OAuth grants not revoked), newest first.',
    auth: 'session',
    params: WorkspaceParams,
    query: PageQuery,
    status: 200,
    response: page(OAuthGrant),
    errors: ['forbidden'],
  }),
  revokeOAuthGrant: defineRoute({
    method: 'DELETE',
    path: '/v1/workspaces/{workspace_id}/oauth-grants/{grant_id}',
    handler: 'oauth/revoke-grant',
    tag: TAG,
    summary: 'Disconnects an app: its tokens stop at once.',
    auth: 'session',
    params: OAuthGrantParams,
    status: 200,
    response: z.object({ revoked: z.literal(true) }),
    errors: ['forbidden', 'not_found'],
  }),
};
