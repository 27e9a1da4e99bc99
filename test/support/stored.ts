/** Records written straight into the table through the store, for integration tests that call handlers in process. */
import { newApiKey, newProfile, type ProfileRecord } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import type { Scope } from '../../shared/domain/scopes.js';
import { issueToken } from '../../shared/domain/secret-tokens.js';
import { putApiKey } from '../../shared/store/api-keys.js';
import { createProfile } from '../../shared/store/profiles.js';
import { putSession } from '../../shared/store/sessions.js';

/** A new profile of the workspace under a username of its own. */
export async function storedProfile(
  workspaceId: string,
  fields: { type?: ProfileRecord['type']; name?: string } = {},
): Promise<ProfileRecord> {
  const name = fields.name ?? 'N';
  const profile = newProfile(new Date(), {
    workspace_id: workspaceId,
    username: `st_${newId().slice(0, 8)}`,
    type: fields.type ?? 'agent',
    name,
    call_name: 'N',
  });
  await createProfile(profile);
  return profile;
}

/** A live API key of the workspace (revoked when told) and the bearer token for it. */
export async function storedApiKey(
  workspaceId: string,
  scopes: readonly string[],
  profileIds: readonly string[],
  options: { revoked?: boolean } = {},
): Promise<{ id: string; token: string }> {
  const id = newId();
  const { token, secretHash } = issueToken('sk', id);
  const now = new Date();
  const key = newApiKey(now, {
    id,
    workspace_id: workspaceId,
    name: 'k',
    scopes: scopes as Scope[],
    profile_ids: [...profileIds],
    prefix: token.slice(0, 11),
    secret_hash: secretHash,
  });
  await putApiKey(options.revoked ? { ...key, revoked_at: now.toISOString() } : key);
  return { id, token };
}

/** A session of the user that expires at `expiresAt` (in the past for an expired one), and its bearer token. */
export async function storedSession(userId: string, expiresAt: string): Promise<{ id: string; token: string }> {
  const id = newId();
  const { token, secretHash } = issueToken('st', id);
  const created = new Date(Math.min(Date.now(), Date.parse(expiresAt))).toISOString();
  await putSession({
    id,
    user_id: userId,
    secret_hash: secretHash,
    created_at: created,
    expires_at: expiresAt,
    last_used_at: created,
    user_agent: null,
    ip_prefix: null,
    method: 'password' as const,
    second_factor: null,
  });
  return { id, token };
}
