import type { ApiKeyRecord } from '../domain/entities.js';
import { conditionOutcome } from './conditional.js';
import { entities } from './entities.js';
import { updateRequest, when } from './expressions.js';
import { getItem, putItem, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import type { ReadBatch } from './read-batch.js';
import type { Page, PageRequest } from './pagination.js';
import { pathPage } from './paths.js';
import type { TransactItem } from './transact.js';
import { sendUpdate } from './update.js';

export async function putApiKey(apiKey: ApiKeyRecord): Promise<void> {
  await putItem(entities.apiKey, apiKey);
}

export function getApiKey(id: string, reads?: ReadBatch): Promise<ApiKeyRecord | undefined> {
  return getItem(entities.apiKey, keys.apiKey(id), { consistent: true, reads });
}

export function listApiKeys(workspaceId: string, request: PageRequest): Promise<Page<ApiKeyRecord>> {
  return pathPage(entities.apiKey, 'byWorkspace', { workspace_id: workspaceId }, request, { order: 'newest_first' });
}

const notRevoked = when.is('revoked_at', null);

/** Sets revoked_at once; revoking again returns the key as it is. Undefined when not in this workspace. */
export async function revokeApiKey(id: string, workspaceId: string, at: string): Promise<ApiKeyRecord | undefined> {
  const outcome = await conditionOutcome(
    sendUpdate({
      key: keys.apiKey(id),
      set: { revoked_at: at },
      when: [when.exists(), when.is('workspace_id', workspaceId), notRevoked],
      returns: 'ALL_NEW',
    }),
  );
  if (outcome.held) return recordOrUndefined(entities.apiKey, outcome.result.Attributes);
  const existing = await getApiKey(id);
  return existing?.workspace_id === workspaceId ? existing : undefined;
}

/** Attaches a profile to a key, as part of the transaction that creates the profile. */
export const attachProfileItem = (apiKeyId: string, profileId: string): TransactItem => ({
  Update: updateRequest({
    key: keys.apiKey(apiKeyId),
    append: { profile_ids: [profileId] },
    when: [when.exists(), notRevoked],
  }),
});
