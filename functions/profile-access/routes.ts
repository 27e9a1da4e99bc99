/** The profile-access routes: method, path, auth, schemas and the errors each can answer with. */
import { defineRoute } from '../../shared/http/contract/route.js';
import { CreateGrantBody, GrantIdParams, GrantResult, Invitation } from '../../shared/http/contract/schemas/grants.js';

export const routes = {
  createGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access', handler: 'profile-access/create-grant', tag: 'Profile access',
    summary: 'Invites a manager profile to manage your profile with the given permissions (status pending).',
    description: 'By an owner/admin session of the managed profile\'s workspace, or an API key with the managed profile attached.',
    auth: 'credential', scope: 'profile_access:write', body: CreateGrantBody, status: 201, response: GrantResult,
    errors: ['profile_not_permitted', 'not_found'],
  }),
  getInvitation: defineRoute({
    method: 'GET', path: '/v1/profile-access/invitations/{grant_id}', handler: 'profile-access/get-invitation', tag: 'Profile access',
    summary: 'Reads an invitation (the invited side or the managed side; 404 to anyone else).',
    auth: 'credential', scope: 'profile_access:read', params: GrantIdParams, status: 200, response: Invitation,
    errors: ['not_found'],
  }),
  acceptGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/invitations/{grant_id}/accept', handler: 'profile-access/accept-grant', tag: 'Profile access',
    summary: 'The invited side accepts a pending invitation (access_grant.accepted to the managed profile).',
    description: 'The managed side gets 403 forbidden; a grant that is not pending 409 invalid_state.',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  declineGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/invitations/{grant_id}/decline', handler: 'profile-access/decline-grant', tag: 'Profile access',
    summary: 'The invited side declines a pending invitation.',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  resendGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/{grant_id}/resend', handler: 'profile-access/resend-grant', tag: 'Profile access',
    summary: 'The managed side resends a pending invitation (recorded in resent_at and resend_count).',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
  revokeGrant: defineRoute({
    method: 'POST', path: '/v1/profile-access/{grant_id}/revoke', handler: 'profile-access/revoke-grant', tag: 'Profile access',
    summary: 'The managed side revokes a pending or accepted grant; acting through it stops at once.',
    auth: 'credential', scope: 'profile_access:write', params: GrantIdParams, status: 200, response: GrantResult,
    errors: ['forbidden', 'not_found', 'invalid_state'],
  }),
};
