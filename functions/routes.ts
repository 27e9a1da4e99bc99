/**
 * THE route table. The CDK stack makes one Lambda and one API Gateway route of each entry; the
 * local server dispatches from it; the OpenAPI document is generated from it. Each handler module
 * exports `handler = httpHandler(routes.<name>, …)`.
 */
import { z } from 'zod';
import { defineRoute } from '../shared/http/route.js';
import { NoParams, PageQuery, page } from '../shared/http/schemas/common.js';
import {
  AddMemberBody,
  ApiKey,
  ApiKeyParams,
  CreateApiKeyBody,
  CreateSessionBody,
  CreateUserBody,
  CreateWorkspaceBody,
  Me,
  Member,
  Session,
  User,
  Workspace,
  WorkspaceParams,
} from '../shared/http/schemas/identity.js';
import { CreateProfileBody, Occupation, Profile, ProfileIdParams, UpdateProfileBody } from '../shared/http/schemas/profiles.js';
import { Health } from '../shared/http/schemas/system.js';

export const routes = {
  health: defineRoute({
    method: 'GET', path: '/v1/health', handler: 'system/health', tag: 'System',
    summary: 'Liveness check.', auth: 'none', status: 200, response: Health, errors: [],
  }),

  createUser: defineRoute({
    method: 'POST', path: '/v1/users', handler: 'identity/create-user', tag: 'Identity',
    summary: 'Sign up: creates a user and a personal workspace owned by it.',
    auth: 'none', body: CreateUserBody, status: 201,
    response: z.object({ user: User, workspace: Workspace }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'email_taken'],
  }),
  createSession: defineRoute({
    method: 'POST', path: '/v1/sessions', handler: 'identity/create-session', tag: 'Identity',
    summary: 'Log in: returns a session token (st_…) valid for 30 days.',
    auth: 'none', body: CreateSessionBody, status: 201,
    response: z.object({ session: Session, user: User }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'invalid_credentials'],
  }),
  deleteSession: defineRoute({
    method: 'DELETE', path: '/v1/sessions/current', handler: 'identity/delete-session', tag: 'Identity',
    summary: 'Log out: the session token stops working at once.',
    auth: 'session', status: 200, response: z.object({ logged_out: z.literal(true) }),
    errors: ['unauthorized', 'session_required'],
  }),
  getMe: defineRoute({
    method: 'GET', path: '/v1/me', handler: 'identity/get-me', tag: 'Identity',
    summary: 'The session user and the workspaces they belong to, with their role in each.',
    auth: 'session', status: 200, response: Me, errors: ['unauthorized', 'session_required'],
  }),
  createWorkspace: defineRoute({
    method: 'POST', path: '/v1/workspaces', handler: 'workspaces/create-workspace', tag: 'Workspaces',
    summary: 'Creates a workspace owned by the caller.',
    auth: 'session', body: CreateWorkspaceBody, status: 201, response: z.object({ workspace: Workspace }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required'],
  }),
  addMember: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/members', handler: 'workspaces/add-member', tag: 'Workspaces',
    summary: 'Adds an existing user to the workspace as admin or member (owner/admin session).',
    auth: 'session', params: WorkspaceParams, body: AddMemberBody, status: 201, response: z.object({ member: Member }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required', 'forbidden', 'not_found', 'invalid_state'],
  }),
  createApiKey: defineRoute({
    method: 'POST', path: '/v1/workspaces/{workspace_id}/api-keys', handler: 'workspaces/create-api-key', tag: 'API keys',
    summary: 'Creates an API key; the full key (sk_…) is returned only in this response.',
    auth: 'session', params: WorkspaceParams, body: CreateApiKeyBody, status: 201,
    response: z.object({ api_key: ApiKey, key: z.string() }),
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'session_required', 'forbidden'],
  }),
  listApiKeys: defineRoute({
    method: 'GET', path: '/v1/workspaces/{workspace_id}/api-keys', handler: 'workspaces/list-api-keys', tag: 'API keys',
    summary: 'Lists the workspace API keys, newest first (never the secret).',
    auth: 'session', params: WorkspaceParams, query: PageQuery, status: 200, response: page(ApiKey),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden'],
  }),
  revokeApiKey: defineRoute({
    method: 'DELETE', path: '/v1/workspaces/{workspace_id}/api-keys/{api_key_id}', handler: 'workspaces/revoke-api-key', tag: 'API keys',
    summary: 'Revokes an API key at once; revoking again is harmless.',
    auth: 'session', params: ApiKeyParams, status: 200, response: z.object({ api_key: ApiKey }),
    errors: ['invalid_request', 'unauthorized', 'session_required', 'forbidden', 'not_found'],
  }),

  createProfile: defineRoute({
    method: 'POST', path: '/v1/profiles', handler: 'profiles/create-profile', tag: 'Profiles',
    summary: 'Creates a human, company or agent profile.',
    description:
      'With a session the profile goes into `workspace_id` (default: your personal workspace). With an API key ' +
      '(scope profiles:write) it goes into the key\'s workspace and is attached to the key.',
    auth: 'credential', scope: 'profiles:write', body: CreateProfileBody, status: 201, response: Profile,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'forbidden', 'username_taken'],
  }),
  getProfile: defineRoute({
    method: 'GET', path: '/v1/profiles/{profile_id}', handler: 'profiles/get-profile', tag: 'Profiles',
    summary: 'Reads a profile (public).', auth: 'none', params: ProfileIdParams, status: 200, response: Profile,
    errors: ['invalid_request', 'unauthorized', 'not_found'],
  }),
  updateProfile: defineRoute({
    method: 'PATCH', path: '/v1/profiles/{profile_id}', handler: 'profiles/update-profile', tag: 'Profiles',
    summary: 'Edits a profile you may act as.',
    auth: 'credential', scope: 'profiles:write', params: ProfileIdParams, body: UpdateProfileBody, status: 200, response: Profile,
    errors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'insufficient_scope', 'profile_not_permitted', 'not_found'],
  }),
  listOccupations: defineRoute({
    method: 'GET', path: '/v1/taxonomies/profile-options/occupations', handler: 'profiles/list-occupations', tag: 'Profiles',
    summary: 'The occupations a profile can select (public).', auth: 'none', params: NoParams, status: 200,
    response: z.array(Occupation), errors: ['unauthorized'],
  }),
};

export type RouteName = keyof typeof routes;
export const routeList = Object.entries(routes).map(([name, route]) => ({ name: name as RouteName, ...route }));
