/**
 * A grant's tokens are written only while the person who approved it still manages the workspace:
 * a demotion that lands between the route's revocation sweep and an exchange or a refresh (a race
 * the e2e tests cannot time) is caught by the write itself.
 */
import { describe, expect, it } from 'vitest';
import { newMembership, newWorkspace } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import {
  addSeconds,
  issueOAuthToken,
  parseOAuthToken,
  type OAuthCodeRecord,
  type OAuthGrantRecord,
  type OAuthTokenRecord,
} from '../../shared/domain/oauth.js';
import { OAuthError } from '../../shared/oauth/errors.js';
import { refreshTokens } from '../../shared/oauth/tokens.js';
import { changeMemberRole } from '../../shared/store/members.js';
import { exchangeCode, getOAuthGrant, putOAuthCode } from '../../shared/store/oauth.js';
import { addMember, createWorkspace } from '../../shared/store/workspaces.js';

const BASE = 'https://api.example';
const now = new Date();
const at = now.toISOString();

/** An admin of a new workspace, a code they approved, and the grant with its first tokens for it. */
async function approvedByAdmin() {
  const workspace = newWorkspace(now, 'Acme');
  await createWorkspace(
    workspace,
    newMembership(now, workspace, { id: newId(), email: 'o@example.com', name: 'O' }, 'owner'),
  );
  const admin = newMembership(now, workspace, { id: newId(), email: 'admin@example.com', name: 'Admin' }, 'admin');
  await addMember(admin);
  const grantId = newId();
  const code: OAuthCodeRecord = {
    code_hash: newId(),
    client_id: 'client',
    client_name: 'Agent',
    redirect_uri: 'https://agent.example/cb',
    code_challenge: 'c'.repeat(43),
    resource: `${BASE}/mcp`,
    audience: 'mcp',
    workspace_id: workspace.id,
    user_id: admin.user_id,
    email: admin.email,
    profile_ids: [],
    scopes: ['posts:read'],
    created_at: at,
    expires_at: addSeconds(now, 60),
    grant_id: null,
  };
  await putOAuthCode(code);
  const grant: OAuthGrantRecord = {
    id: grantId,
    workspace_id: workspace.id,
    client_id: code.client_id,
    client_name: code.client_name,
    approved_by: { user_id: admin.user_id, email: admin.email },
    profile_ids: [],
    scopes: code.scopes,
    resource: code.resource,
    audience: 'mcp',
    created_at: at,
    last_used_at: at,
    revoked_at: null,
    access_token: null,
  };
  const refresh = issueOAuthToken('ort', grantId, newId());
  const refreshRecord: OAuthTokenRecord = {
    grant_id: grantId,
    id: parseOAuthToken(refresh.token)!.tokenId,
    kind: 'refresh',
    secret_hash: refresh.secretHash,
    created_at: at,
    expires_at: addSeconds(now, 3600),
    used_at: null,
  };
  return { admin, code, grant, refresh: refresh.token, refreshRecord };
}

describe('the approver’s role when tokens are written', () => {
  it('refuses a refresh once the approver is a member, and revokes the grant', async () => {
    const { admin, code, grant, refresh, refreshRecord } = await approvedByAdmin();
    expect(await exchangeCode(code, grant, refreshRecord)).toBe('written');
    // Demoted without the route's sweep of their grants.
    await changeMemberRole(admin, 'member', admin);

    const refused = refreshTokens({ refresh_token: refresh, client_id: 'client' }, BASE, now);
    await expect(refused).rejects.toThrow(OAuthError);
    await expect(refused).rejects.toThrow(/no longer an owner or admin/);
    expect((await getOAuthGrant(grant.id))?.revoked_at).toBe(at);
  });

  it('refuses to exchange a code once its approver is a member', async () => {
    const { admin, code, grant, refreshRecord } = await approvedByAdmin();
    await changeMemberRole(admin, 'member', admin);
    expect(await exchangeCode(code, grant, refreshRecord)).toBe('approver_gone');
    expect(await getOAuthGrant(grant.id)).toBeUndefined();
  });
});
