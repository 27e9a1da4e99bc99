/**
 * The OAuth 2.1 items (domain/oauth.ts): clients, codes, grants and their tokens. A grant and its
 * tokens share one partition, so that a request reads its access token and its grant in one
 * BatchGetItem, as an API key is one key of that read.
 */
import type {
  LiveAccessToken,
  OAuthClientRecord,
  OAuthCodeRecord,
  OAuthGrantRecord,
  OAuthTokenRecord,
} from '../domain/oauth.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { conditionHeld } from './conditional.js';
import { entities } from './entities.js';
import { updateRequest, when } from './expressions.js';
import { getItem, indexChanges, putItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import { stillManagesItem } from './members.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage, queryPathPages } from './paths.js';
import { ReadBatch } from './read-batch.js';
import { transactConditional, type TransactItem } from './transact.js';
import { sendUpdate } from './update.js';

export async function putOAuthClient(client: OAuthClientRecord): Promise<void> {
  await putItem(entities.oauthClient, client);
}

export const getOAuthClient = (clientId: string): Promise<OAuthClientRecord | undefined> =>
  getItem(entities.oauthClient, keys.oauthClient(clientId), { consistent: true });

export async function putOAuthCode(code: OAuthCodeRecord): Promise<void> {
  await putItem(entities.oauthCode, code);
}

export const getOAuthCode = (codeHash: string): Promise<OAuthCodeRecord | undefined> =>
  getItem(entities.oauthCode, keys.oauthCode(codeHash), { consistent: true });

export const getOAuthGrant = (grantId: string): Promise<OAuthGrantRecord | undefined> =>
  getItem(entities.oauthGrant, keys.oauthGrant(grantId), { consistent: true });

/**
 * The grant an access token names, with its live access token: the request's read when given (the
 * credential joins the route's other reads, one item as an API key is).
 */
export const getGrantForRequest = (grantId: string, reads?: ReadBatch): Promise<OAuthGrantRecord | undefined> =>
  getItem(entities.oauthGrant, keys.oauthGrant(grantId), reads ? { reads } : {});

/** A refresh token and its grant, in one BatchGetItem. */
export async function getGrantAndToken(
  grantId: string,
  tokenId: string,
): Promise<{ grant: OAuthGrantRecord | undefined; token: OAuthTokenRecord | undefined }> {
  const reads = new ReadBatch();
  const [grant, token] = await Promise.all([
    getItem(entities.oauthGrant, keys.oauthGrant(grantId), { reads }),
    getItem(entities.oauthToken, keys.oauthToken(grantId, 'refresh', tokenId), { reads }),
  ]);
  return { grant, token };
}

const notRevoked = when.is('revoked_at', null);

/** Whether an exchange or a refresh wrote, or why not. */
export type GrantWriteOutcome = 'written' | 'used' | 'approver_gone' | 'revoked';

/** The grant's approver is still an owner or admin of its workspace (else the app no longer acts). */
const approverManages = (grant: Pick<OAuthGrantRecord, 'workspace_id' | 'approved_by'>) =>
  stillManagesItem(grant.workspace_id, grant.approved_by.user_id);

/**
 * The code exchange, all or nothing: the code is marked as having become `grant` (only if it had
 * not become one yet), the grant is created with its first access and refresh tokens, while the
 * person who approved it still manages the workspace. `used` when the code was exchanged
 * meanwhile, `approver_gone` when its approver left the workspace or lost the owner or admin role.
 */
export async function exchangeCode(
  code: OAuthCodeRecord,
  grant: OAuthGrantRecord,
  refresh: OAuthTokenRecord,
): Promise<Exclude<GrantWriteOutcome, 'revoked'>> {
  const outcome = await transactConditional([
    {
      Update: updateRequest({
        key: keys.oauthCode(code.code_hash),
        set: { grant_id: grant.id },
        when: [when.exists(), when.is('grant_id', null)],
      }),
    },
    approverManages(grant),
    putTransactItem(entities.oauthGrant, grant),
    putTransactItem(entities.oauthToken, refresh),
  ]);
  if (outcome.ok) return 'written';
  return outcome.failed[0] ? 'used' : 'approver_gone';
}

/**
 * A refresh: the presented refresh token is marked used (only if it was not), the grant's
 * last_used_at moves (only while not revoked), and the new tokens are written, in one transaction,
 * while the grant's approver still manages the workspace. `used`: the refresh token had been
 * exchanged; `revoked`: the grant was; `approver_gone`: its approver left or lost the role.
 */
export async function rotateRefreshToken(
  used: OAuthTokenRecord,
  grant: Pick<OAuthGrantRecord, 'id' | 'workspace_id' | 'approved_by'>,
  at: string,
  tokens: { access: LiveAccessToken; refresh: OAuthTokenRecord },
): Promise<GrantWriteOutcome> {
  const grantId = grant.id;
  const outcome = await transactConditional([
    {
      Update: updateRequest({
        key: keys.oauthToken(grantId, 'refresh', used.id),
        set: { used_at: at },
        when: [when.exists(), when.is('used_at', null)],
      }),
    },
    {
      Update: updateRequest({
        key: keys.oauthGrant(grantId),
        set: { last_used_at: at, access_token: tokens.access },
        when: [when.exists(), notRevoked],
      }),
    },
    approverManages(grant),
    putTransactItem(entities.oauthToken, tokens.refresh),
  ]);
  if (outcome.ok) return 'written';
  if (outcome.failed[0]) return 'used';
  return outcome.failed[1] ? 'revoked' : 'approver_gone';
}

/** Revokes a grant (and so every token of it), and takes it off its workspace's list; true when this call revoked it. */
export function revokeOAuthGrant(grantId: string, at: string, workspaceId?: string): Promise<boolean> {
  // A revoked grant is on no path: its list's index attributes go (only revoked_at decides that).
  const { remove } = indexChanges(entities.oauthGrant, { revoked_at: at } as OAuthGrantRecord);
  return conditionHeld(
    sendUpdate({
      key: keys.oauthGrant(grantId),
      set: { revoked_at: at },
      remove,
      when: [when.exists(), notRevoked, ...(workspaceId ? [when.is('workspace_id', workspaceId)] : [])],
    }),
  );
}

/** Revokes the grant's live access token alone (RFC 7009), unless a refresh replaced it meanwhile. */
export async function revokeAccessToken(grantId: string, live: LiveAccessToken): Promise<void> {
  await conditionHeld(
    sendUpdate({
      key: keys.oauthGrant(grantId),
      set: { access_token: null },
      when: [when.exists(), when.is('access_token', live)],
    }),
  );
}

/** A workspace's connected apps (not revoked), newest first. */
export const listOAuthGrants = (workspaceId: string, request: PageRequest): Promise<Page<OAuthGrantRecord>> =>
  pathPage(entities.oauthGrant, 'byWorkspace', { workspace_id: workspaceId }, request, { order: 'newest_first' });

/** Grants revoked at once: a page may hold hundreds. */
const REVOKED_AT_ONCE = 16;

/** Revokes the grants one person approved in a workspace (they left it, or may no longer approve apps). */
export async function revokeOAuthGrantsApprovedBy(workspaceId: string, userId: string, at: string): Promise<number> {
  let revoked = 0;
  for await (const page of queryPathPages(entities.oauthGrant, 'byWorkspace', { workspace_id: workspaceId })) {
    const mine = page.filter((g) => g.approved_by.user_id === userId && g.revoked_at === null);
    const results = await mapLimit(mine, REVOKED_AT_ONCE, (g) => revokeOAuthGrant(g.id, at));
    revoked += results.filter(Boolean).length;
  }
  return revoked;
}

/** Adds a profile to a grant, as part of the transaction that creates the profile through it. */
export const attachProfileToGrantItem = (grantId: string, profileId: string): TransactItem => ({
  Update: updateRequest({
    key: keys.oauthGrant(grantId),
    append: { profile_ids: [profileId] },
    when: [when.exists(), notRevoked],
  }),
});
