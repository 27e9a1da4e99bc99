import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord } from '../domain/entities.js';
import { db, tableName } from './client.js';
import { entities } from './entities.js';
import { getItem, putItem, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import type { ReadBatch } from './read-batch.js';
import { indexPage, type Page, type PageRequest } from './pagination.js';
import { isConditionFailure, type TransactItem } from './transact.js';

export async function putApiKey(apiKey: ApiKeyRecord): Promise<void> {
  await putItem(entities.apiKey, apiKey);
}

export function getApiKey(id: string, reads?: ReadBatch): Promise<ApiKeyRecord | undefined> {
  return getItem(entities.apiKey, keys.apiKey(id), { consistent: true, reads });
}

export function listApiKeys(workspaceId: string, request: PageRequest): Promise<Page<ApiKeyRecord>> {
  return indexPage(entities.apiKey, 'gsi1', keys.workspaceApiKeys(workspaceId), request, 'newest_first');
}

/** Sets revoked_at once; revoking again returns the key as it is. Undefined when not in this workspace. */
export async function revokeApiKey(id: string, workspaceId: string, at: string): Promise<ApiKeyRecord | undefined> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(id),
        UpdateExpression: 'SET revoked_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND workspace_id = :ws AND revoked_at = :null',
        ExpressionAttributeValues: { ':at': at, ':ws': workspaceId, ':null': null },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOrUndefined(entities.apiKey, Attributes);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const existing = await getApiKey(id);
    return existing?.workspace_id === workspaceId ? existing : undefined;
  }
}

/** Attaches a profile to a key, as part of the transaction that creates the profile. */
export const attachProfileItem = (apiKeyId: string, profileId: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.apiKey(apiKeyId),
    UpdateExpression: 'SET profile_ids = list_append(profile_ids, :p)',
    ConditionExpression: 'attribute_exists(pk) AND revoked_at = :null',
    ExpressionAttributeValues: { ':p': [profileId], ':null': null },
  },
});
