/** The workspaces routes: method, path, auth, schemas and the errors each can answer with. */
import * as z from 'zod';
import { defineRoute } from '../../shared/http/contract/route.js';
import { PageQuery, page } from '../../shared/http/contract/schemas/common.js';
import { AddMemberBody, ApiKey, ApiKeyParams, ChangeMemberRoleBody, CreateApiKeyBody, CreateWorkspaceBody, Member, MemberParams, Workspace, WorkspaceParams } from '../../shared/http/contract/schemas/identity.js';

export const routes = {
  createWorkspace: defineRoute({
    method: 'POST', path: '/v1/workspaces', handler: 'workspaces/create-workspace', tag: 'Workspaces',
    summary: 'Creates a workspace owned by the caller.',
    auth: 'session', body: CreateWorkspaceBody, status: 201, response: z.object({ workspace: Workspace }),
    errors: [],
  }),
  addMember: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/members', handler: 'workspaces/add-member', tag: 'Workspaces',
    summary: 'Adds an existing user to the workspace as admin or member (owner/admin session).',
    auth: 'session', params: WorkspaceParams, body: AddMemberBody, status: 201, response: z.object({ member: Member }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  removeMember: defineRoute({
    method: 'DELETE', path: '/v1/workspaces/{workspace_id}/members/{user_id}', handler: 'workspaces/remove-member', tag: 'Workspaces',
    summary: 'Removes a member (owner/admin session); members may remove themselves. The owner cannot be removed.',
    description:
      'Removes a member (owner/admin session); any member may remove themselves (leave). The owner cannot be removed: `403 forbidden` for others, `409 invalid_state` for the owner themselves (a workspace always keeps its owner). Holds on the removed member\'s very next request; the workspace\'s API keys are not affected.',
    auth: 'session', params: MemberParams, status: 200, response: z.object({ removed: z.literal(true) }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  changeMemberRole: defineRoute({
    method: 'PATCH', path: '/v1/workspaces/{workspace_id}/members/{user_id}', handler: 'workspaces/change-member-role', tag: 'Workspaces',
    summary: 'Makes a member admin or member (owner/admin session). The owner cannot be demoted.',
    description:
      'Makes a member admin or member (owner/admin session). The owner cannot be demoted: `403 forbidden` for others, `409 invalid_state` for the owner themselves. Holds on the member\'s very next request.',
    auth: 'session', params: MemberParams, body: ChangeMemberRoleBody, status: 200, response: z.object({ member: Member }),
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  createApiKey: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/api-keys', handler: 'workspaces/create-api-key', tag: 'API keys',
    summary: 'Creates an API key; the full key (sk_…) is returned only in this response.',
    auth: 'session', params: WorkspaceParams, body: CreateApiKeyBody, status: 201,
    response: z.object({ api_key: ApiKey, key: z.string() }),
    idempotent: true,
    errors: ['forbidden'],
  }),
  listApiKeys: defineRoute({
    method: 'GET', path: '/v1/workspaces/{workspace_id}/api-keys', handler: 'workspaces/list-api-keys', tag: 'API keys',
    summary: 'Lists the workspace API keys, newest first (never the secret).',
    auth: 'session', params: WorkspaceParams, query: PageQuery, status: 200, response: page(ApiKey),
    errors: ['forbidden'],
  }),
  revokeApiKey: defineRoute({
    method: 'DELETE', path: '/v1/workspaces/{workspace_id}/api-keys/{api_key_id}', handler: 'workspaces/revoke-api-key', tag: 'API keys',
    summary: 'Revokes an API key at once; revoking again is harmless.',
    auth: 'session', params: ApiKeyParams, status: 200, response: z.object({ api_key: ApiKey }),
    errors: ['forbidden', 'not_found'],
  }),
};
