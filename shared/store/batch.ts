import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';

export interface ItemKey {
  pk: string;
  sk: string;
}

export const keyId = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/**
 * Items by key in one BatchGetItem per 100 keys (more only for UnprocessedKeys), as a map from
 * `keyId(key)` to the raw item; missing items are absent.
 */
export async function batchGet(
  itemKeys: readonly ItemKey[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(itemKeys.map((k) => [keyId(k), { pk: k.pk, sk: k.sk }])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead?: boolean }> | undefined = {
      [tableName()]: { Keys: unique.slice(i, i + 100), ...(options.consistent ? { ConsistentRead: true } : {}) },
    };
    while (request && Object.keys(request).length > 0) {
      const result = await db().send(new BatchGetCommand({ RequestItems: request }));
      for (const item of result.Responses?.[tableName()] ?? []) found.set(keyId(item as ItemKey), item);
      request = result.UnprocessedKeys as typeof request;
    }
  }
  return found;
}
