import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';
import { isConditionFailure } from './transact.js';

/** What is kept of the first response, to answer a retry with it. */
export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'in_progress'; fingerprint: string }
  | { kind: 'completed'; fingerprint: string; response: StoredResponse };

export interface ClaimRequest {
  /** The credential the key belongs to: keys of different callers never meet. */
  scope: string;
  keyHash: string;
  /** What the request asked for (route, acting profile, body); a retry must ask for the same. */
  fingerprint: string;
  now: Date;
  keepSeconds: number;
  /** A claim whose request died (Lambda timeout) may be taken again, by the same request, after this. */
  leaseSeconds: number;
}

/**
 * Claims a key with one conditional PutItem. A key already held answers with what is stored
 * (one consistent GetItem, only on that path): still running, or the first response.
 */
export async function claimIdempotencyKey(claim: ClaimRequest): Promise<IdempotencyClaim> {
  const nowMs = claim.now.getTime();
  const nowSeconds = Math.floor(nowMs / 1000);
  const key = keys.idempotencyKey(claim.scope, claim.keyHash);
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          status: 'in_progress',
          fingerprint: claim.fingerprint,
          lease_until: nowMs + claim.leaseSeconds * 1000,
          expires_at_epoch: nowSeconds + claim.keepSeconds,
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR expires_at_epoch <= :now OR (#status = :running AND lease_until <= :nowMs AND fingerprint = :fp)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':now': nowSeconds,
          ':nowMs': nowMs,
          ':running': 'in_progress',
          ':fp': claim.fingerprint,
        },
      }),
    );
    return { kind: 'claimed' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  // Released between the two calls: the caller may simply retry.
  if (!Item) return { kind: 'in_progress', fingerprint: claim.fingerprint };
  const fingerprint = Item.fingerprint as string;
  if (Item.status === 'completed') return { kind: 'completed', fingerprint, response: Item.response as StoredResponse };
  return { kind: 'in_progress', fingerprint };
}

export async function completeIdempotencyKey(scope: string, keyHash: string, response: StoredResponse): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.idempotencyKey(scope, keyHash),
      UpdateExpression: 'SET #status = :done, #response = :response REMOVE lease_until',
      ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: { ':done': 'completed', ':response': response },
    }),
  );
}

/** Frees a key whose request failed, so that the same key can be sent again once the cause is fixed. */
export async function releaseIdempotencyKey(scope: string, keyHash: string): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.idempotencyKey(scope, keyHash),
        ConditionExpression: '#status = :running',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'in_progress' },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
