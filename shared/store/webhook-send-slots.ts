/**
 * What keeps one tenant from taking the whole sender: leases on the attempts in flight, per
 * endpoint and per workspace, and the next free slot of an endpoint's own rate limit.
 *
 * Both lease counts live on one item per workspace: the workspace's lease set (`leases`) and one
 * set per endpoint with attempts in flight (`e_<endpoint id prefix>`; DynamoDB drops a set once empty).
 * A lease is a member `<expires at, epoch seconds base 36>|<random id>` of both: taking one is a single
 * `ADD` conditioned on both sizes, giving it back a single `DELETE`, so an attempt costs two small
 * writes. A sender that dies mid-attempt leaves its lease behind until it expires (the claim's
 * stale time); the next refusal that sees such leases drops them.
 */
import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.js';
import { entityTags, keys } from './keys.js';
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

/**
 * The item is billed by its size and every attempt of the workspace writes it twice: short names.
 * An endpoint's set is named by the first 48 bits of its (random) id; two endpoints of one
 * workspace sharing them would only share their places (stricter, never looser).
 */
const ENDPOINT_PREFIX = 'e_';
export const endpointAttribute = (endpointId: string) =>
  `${ENDPOINT_PREFIX}${endpointId.replace(/-/g, '').slice(0, 12)}`;

/** A short token (the item holds each twice): the expiry in base 36 and 36 random bits. */
const leaseToken = (expiresAt: Date) =>
  `${Math.ceil(expiresAt.getTime() / 1000).toString(36)}|${randomBytes(5).toString('base64url').slice(0, 6)}`;

/** When a token expires (epoch ms). */
const expiryOf = (token: string): number => parseInt(token.slice(0, token.indexOf('|')), 36) * 1000;

type RawSet = { SS?: string[] } | Set<string> | string[] | undefined;
const tokensOf = (value: RawSet): string[] =>
  !value ? [] : value instanceof Set ? [...value] : Array.isArray(value) ? value : (value.SS ?? []);

/**
 * A lease on one more attempt in flight to `endpointId` of `workspaceId`, if neither is at its
 * limit: one conditional update of the workspace's item. When refused, expired leases found on it
 * are dropped and the lease is tried once more.
 */
export async function acquireSendLease(
  workspaceId: string,
  endpointId: string,
  now: Date,
  expiresAt: Date,
  limits: LeaseLimits,
): Promise<LeaseOutcome> {
  const lease: SendLease = { workspaceId, endpointId, token: leaseToken(expiresAt) };
  const key = keys.webhookWorkspaceSending(workspaceId);
  for (let round = 0; ; round++) {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET entity = :entity ADD leases :token, #ep :token',
          ConditionExpression:
            '(attribute_not_exists(leases) OR size(leases) < :perWorkspace) AND (attribute_not_exists(#ep) OR size(#ep) < :perEndpoint)',
          ExpressionAttributeNames: { '#ep': endpointAttribute(endpointId) },
          ExpressionAttributeValues: {
            ':entity': entityTags.webhookSending,
            ':token': new Set([lease.token]),
            ':perWorkspace': limits.perWorkspace,
            ':perEndpoint': limits.perEndpoint,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { ok: true, lease };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const item = (error as { Item?: Record<string, RawSet> }).Item ?? {};
      const full =
        tokensOf(item[endpointAttribute(endpointId)]).length >= limits.perEndpoint ? 'endpoint' : 'workspace';
      const expired = Object.entries(item)
        .filter(([name]) => name === 'leases' || name.startsWith(ENDPOINT_PREFIX))
        .map(([name, value]) => [name, tokensOf(value).filter((token) => expiryOf(token) <= now.getTime())] as const)
        .filter(([, tokens]) => tokens.length > 0);
      if (round > 0 || expired.length === 0) return { ok: false, full };
      await dropTokens(key, expired);
    }
  }
}

async function dropTokens(
  key: Record<string, string>,
  sets: readonly (readonly [string, readonly string[]])[],
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'DELETE ' + sets.map((_, i) => `#s${i} :t${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(sets.map(([name], i) => [`#s${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(sets.map(([, tokens], i) => [`:t${i}`, new Set(tokens)])),
    }),
  );
}

/** Gives the lease back: one small write. */
export async function releaseSendLease(lease: SendLease): Promise<void> {
  await dropTokens(keys.webhookWorkspaceSending(lease.workspaceId), [
    ['leases', [lease.token]],
    [endpointAttribute(lease.endpointId), [lease.token]],
  ]);
}

export type PaceOutcome = { ok: true; sendAt: Date } | { ok: false; freeAt: Date };

/**
 * Reserves the endpoint's next send slot, `spacingMs` after the previous one: now if it is free,
 * else the next one if it is at most `maxWaitMs` away (the caller waits for it). Further away, the
 * caller defers the attempt until `freeAt` instead of holding a sender that long.
 */
export async function reserveSendSlot(
  endpointId: string,
  now: Date,
  spacingMs: number,
  maxWaitMs: number,
): Promise<PaceOutcome> {
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
          ExpressionAttributeValues: {
            ...values,
            ':entity': entityTags.webhookSending,
            ':next': new Date(sendAt.getTime() + spacingMs).toISOString(),
          },
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
