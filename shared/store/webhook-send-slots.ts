/**
 * What keeps one tenant from taking the whole sender: leases on the attempts in flight, per
 * endpoint and per workspace, and the next free slot of an endpoint's own rate limit.
 *
 * A lease is a string-set member `<expires_at>|<lease id>`: taking one is an `ADD` conditioned on
 * the set's size (on both items), giving it back a `DELETE`. A sender that dies
 * mid-attempt leaves its lease behind until `expires_at` (the claim's stale time); the next
 * refusal that sees such leases drops them.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { keys } from './keys.js';
import { isConditionFailure } from './transact.js';

export interface SendLease {
  workspaceId: string;
  endpointId: string;
  token: string;
}

export interface LeaseLimits {
  perEndpoint: number;
  perWorkspace: number;
}

export type LeaseOutcome = { ok: true; lease: SendLease } | { ok: false; full: 'endpoint' | 'workspace' };

const leaseKeys = (lease: Pick<SendLease, 'workspaceId' | 'endpointId'>) => [keys.webhookEndpointSending(lease.endpointId), keys.webhookWorkspaceSending(lease.workspaceId)] as const;

/** ADD the token to the item's lease set if it holds fewer than `limit`; on refusal, the tokens it holds. */
async function takeLease(key: Record<string, string>, token: string, limit: number): Promise<{ ok: true } | { ok: false; held: string[] }> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET entity = :entity ADD leases :token',
        ConditionExpression: 'attribute_not_exists(leases) OR size(leases) < :limit',
        ExpressionAttributeValues: { ':entity': 'webhook_sending', ':token': new Set([token]), ':limit': limit },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ok: true };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return { ok: false, held: tokensOf((error as { Item?: Record<string, unknown> }).Item) };
  }
}

/** The lease tokens of a refused item (raw AttributeValues there, not unmarshalled). */
function tokensOf(item: Record<string, unknown> | undefined): string[] {
  const leases = item?.leases as { SS?: string[] } | Set<string> | undefined;
  if (!leases) return [];
  if (leases instanceof Set) return [...leases];
  return leases.SS ?? [];
}

async function dropLeases(key: Record<string, string>, tokens: string[]): Promise<void> {
  if (tokens.length === 0) return;
  await db().send(
    new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'DELETE leases :tokens', ExpressionAttributeValues: { ':tokens': new Set(tokens) } }),
  );
}

/**
 * A lease on one more attempt in flight to `endpointId` of `workspaceId`, if neither is at its
 * limit. Two single-item conditional updates side by side, not a transaction: every attempt of a
 * workspace touches its item, and concurrent transactions on one item cancel each other
 * (TransactionConflict) where plain updates just queue. When one is refused the other is given
 * back; expired leases found on a full item are dropped and the lease is tried once more.
 */
export async function acquireSendLease(
  workspaceId: string,
  endpointId: string,
  leaseId: string,
  now: Date,
  expiresAt: Date,
  limits: LeaseLimits,
): Promise<LeaseOutcome> {
  const lease: SendLease = { workspaceId, endpointId, token: `${expiresAt.toISOString()}|${leaseId}` };
  const [endpointKey, workspaceKey] = leaseKeys(lease);
  const expired = (held: string[]) => held.filter((t) => t.slice(0, t.indexOf('|')) <= now.toISOString());
  for (let round = 0; ; round++) {
    const [onEndpoint, onWorkspace] = await Promise.all([
      takeLease(endpointKey, lease.token, limits.perEndpoint),
      takeLease(workspaceKey, lease.token, limits.perWorkspace),
    ]);
    if (onEndpoint.ok && onWorkspace.ok) return { ok: true, lease };
    if (onEndpoint.ok) await dropLeases(endpointKey, [lease.token]);
    if (onWorkspace.ok) await dropLeases(workspaceKey, [lease.token]);
    const full = !onEndpoint.ok ? 'endpoint' : 'workspace';
    const stale = [
      ...(onEndpoint.ok ? [] : [[endpointKey, expired(onEndpoint.held)] as const]),
      ...(onWorkspace.ok ? [] : [[workspaceKey, expired(onWorkspace.held)] as const]),
    ].filter(([, tokens]) => tokens.length > 0);
    if (round > 0 || stale.length === 0) return { ok: false, full };
    await Promise.all(stale.map(([key, tokens]) => dropLeases(key, tokens)));
  }
}

/** Gives the lease back (both items, in parallel; each is one small write). */
export async function releaseSendLease(lease: SendLease): Promise<void> {
  await Promise.all(leaseKeys(lease).map((key) => dropLeases(key, [lease.token])));
}

export type PaceOutcome = { ok: true; sendAt: Date } | { ok: false; freeAt: Date };

/**
 * Reserves the endpoint's next send slot, `spacingMs` after the previous one: now if it is free,
 * else the next one if it is at most `maxWaitMs` away (the caller waits for it). Further away, the
 * caller defers the attempt until `freeAt` instead of holding a sender that long.
 */
export async function reserveSendSlot(endpointId: string, now: Date, spacingMs: number, maxWaitMs: number): Promise<PaceOutcome> {
  const key = keys.webhookEndpointSending(endpointId);
  let condition = 'attribute_not_exists(next_send_at) OR next_send_at <= :now';
  let values: Record<string, unknown> = { ':now': now.toISOString() };
  let sendAt = now;
  for (let round = 0; round < 5; round++) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET entity = :entity, next_send_at = :next',
          ConditionExpression: condition,
          ExpressionAttributeValues: { ...values, ':entity': 'webhook_sending', ':next': new Date(sendAt.getTime() + spacingMs).toISOString() },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { ok: true, sendAt };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const item = (error as { Item?: Record<string, { S?: string } | string> }).Item;
      const raw = item?.next_send_at;
      const taken = typeof raw === 'string' ? raw : raw?.S;
      if (!taken) continue;
      const takenAt = new Date(taken);
      if (takenAt.getTime() <= now.getTime()) {
        sendAt = now;
      } else {
        if (takenAt.getTime() - now.getTime() > maxWaitMs) return { ok: false, freeAt: takenAt };
        sendAt = takenAt;
      }
      condition = 'next_send_at = :taken';
      values = { ':taken': taken };
    }
  }
  return { ok: false, freeAt: new Date(now.getTime() + spacingMs) };
}
