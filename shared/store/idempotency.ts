import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { conditionHeld, conditionOutcome } from './conditional.js';
import { epochNow, epochSeconds } from './epoch.js';
import { conditionRequest, when } from './expressions.js';
import { keys } from './keys.js';
import { TABLE } from './table.js';
import { sendUpdate } from './update.js';

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
 * Claims a key with one conditional PutItem. A key already held answers with what is stored, which
 * the refusal itself returns: still running, or the first response.
 */
export async function claimIdempotencyKey(claim: ClaimRequest): Promise<IdempotencyClaim> {
  const nowMs = claim.now.getTime();
  // The key is free, or held by a claim that expired, or by this same request whose run died.
  const free = when.absent();
  const expired = when.compare(TABLE.ttlAttribute, '<=', epochNow(claim.now));
  const abandonedBySameRequest = when.all(
    when.is('status', 'in_progress'),
    when.compare('lease_until', '<=', nowMs),
    when.is('fingerprint', claim.fingerprint),
  );
  const outcome = await conditionOutcome(
    db().send(
      new PutCommand({
        ...conditionRequest(when.any(free, expired, abandonedBySameRequest)),
        Item: {
          ...keys.idempotencyKey(claim.scope, claim.keyHash),
          status: 'in_progress',
          fingerprint: claim.fingerprint,
          lease_until: nowMs + claim.leaseSeconds * 1000,
          [TABLE.ttlAttribute]: epochSeconds(claim.now) + claim.keepSeconds,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (outcome.held) return { kind: 'claimed' };
  const held = outcome.item;
  // Released meanwhile (only a refusal without an item): the caller may simply retry.
  if (!held) return { kind: 'in_progress', fingerprint: claim.fingerprint };
  const fingerprint = held.fingerprint as string;
  if (held.status === 'completed') return { kind: 'completed', fingerprint, response: held.response as StoredResponse };
  return { kind: 'in_progress', fingerprint };
}

export async function completeIdempotencyKey(scope: string, keyHash: string, response: StoredResponse): Promise<void> {
  await sendUpdate({
    key: keys.idempotencyKey(scope, keyHash),
    set: { status: 'completed', response },
    remove: ['lease_until'],
  });
}

/** Frees a key whose request failed, so that the same key can be sent again once the cause is fixed. */
export async function releaseIdempotencyKey(scope: string, keyHash: string): Promise<void> {
  await conditionHeld(
    db().send(
      new DeleteCommand({
        ...conditionRequest(when.is('status', 'in_progress')),
        Key: keys.idempotencyKey(scope, keyHash),
      }),
    ),
  );
}
