/**
 * What keeps one tenant from taking the whole sender: leases on the attempts in flight, per
 * endpoint and per workspace, and the next free slot of an endpoint's own rate limit.
 *
 * Both lease counts live on one item per workspace: the workspace's lease set (`leases`) and one
 * set per endpoint with attempts in flight (`e_<endpoint id prefix>`; DynamoDB drops a set once empty).
 * A lease is a member `<expires at, epoch seconds base 36>|<random id>` of both. The same item holds
 * the claim of each attempt in flight (`c_<delivery id prefix>` = `<attempt>|<lease>`): taking the
 * lease and the claim is a single write (`SET` the claim, `ADD` the lease, conditioned on both sizes
 * and on no live claim of that attempt), giving both back another, so an attempt costs two small
 * writes and no write of the delivery. A sender that dies mid-attempt leaves its lease and claim
 * behind until they expire (the claim's stale time); the next refusal that sees them drops them.
 */
import { randomBytes } from 'node:crypto';
import { retry } from '../pipeline/retry.js';
import type { ItemKey } from './batch.js';
import { conditionHeld, conditionOutcome } from './conditional.js';
import { epochSeconds } from './epoch.js';
import { when, type Condition } from './expressions.js';
import { entityTags, keys } from './keys.js';
import { sendUpdate } from './update.js';

export interface SendLease {
  workspaceId: string;
  endpointId: string;
  token: string;
  /** The claim taken with the lease: its attribute and value. */
  claim?: { attribute: string; value: string };
}

export interface LeaseLimits {
  perEndpoint: number;
  perWorkspace: number;
}

/** The attempt a lease also claims: no other sender makes it while the claim lives. */
export interface AttemptClaim {
  deliveryId: string;
  attempt: number;
}

export type LeaseOutcome =
  | { ok: true; lease: SendLease }
  /** `claimed`: another sender holds a live claim of this attempt. */
  | { ok: false; full: 'endpoint' | 'workspace' | 'claimed' };

/**
 * The item is billed by its size and every attempt of the workspace writes it twice: short names.
 * An endpoint's set is named by the first 48 bits of its (random) id; two endpoints of one
 * workspace sharing them would only share their places (stricter, never looser). A claim is named
 * by the first 64 bits of the delivery id (a hash).
 */
const ENDPOINT_PREFIX = 'e_';
const CLAIM_PREFIX = 'c_';
export const endpointAttribute = (endpointId: string) =>
  `${ENDPOINT_PREFIX}${endpointId.replace(/-/g, '').slice(0, 12)}`;
export const claimAttribute = (deliveryId: string) => `${CLAIM_PREFIX}${deliveryId.replace(/-/g, '').slice(0, 16)}`;

/** `<attempt, 4 digits>|`: claim values sort by attempt, so a claim of an earlier attempt never blocks a later one. */
const attemptPrefix = (attempt: number) => `${String(attempt).padStart(4, '0')}|`;

/** A short token (the item holds each twice): the expiry in base 36 and 36 random bits. */
const leaseToken = (expiresAt: Date) =>
  `${epochSeconds(expiresAt).toString(36)}|${randomBytes(5).toString('base64url').slice(0, 6)}`;

/** When a token (or a claim value `<attempt>|<token>`) expires (epoch ms). */
const expiryOf = (token: string): number => {
  const parts = token.split('|');
  return parseInt(parts[parts.length - 2] ?? '0', 36) * 1000;
};

/** The tokens of a set attribute and the value of a string one, as a refused update returns them. */
const tokensOf = (value: unknown): string[] => (value instanceof Set ? [...(value as Set<string>)] : []);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

type Item = Record<string, unknown>;

/** What to drop from the item: tokens from sets, and claims (each only if it still holds that value). */
interface Expired {
  sets: (readonly [string, readonly string[]])[];
  claims: (readonly [string, string])[];
}

/**
 * A lease on one more attempt in flight to `endpointId` of `workspaceId`, if neither is at its
 * limit, and with `claim`, the claim of that attempt if no other sender holds it: one conditional
 * update of the workspace's item. When refused, expired leases and claims found on it are dropped
 * and the lease is tried once more.
 */
export async function acquireSendLease(
  workspaceId: string,
  endpointId: string,
  now: Date,
  expiresAt: Date,
  limits: LeaseLimits,
  claim?: AttemptClaim,
): Promise<LeaseOutcome> {
  const token = leaseToken(expiresAt);
  const claimed = claim && {
    attribute: claimAttribute(claim.deliveryId),
    value: `${attemptPrefix(claim.attempt)}${token}`,
  };
  const lease: SendLease = { workspaceId, endpointId, token, ...(claimed ? { claim: claimed } : {}) };
  const key = keys.webhookWorkspaceSending(workspaceId);
  const endpointSet = endpointAttribute(endpointId);
  const fits: Condition[] = [
    when.any(when.lacks('leases'), when.size('leases', '<', limits.perWorkspace)),
    when.any(when.lacks(endpointSet), when.size(endpointSet, '<', limits.perEndpoint)),
  ];
  const take = async (): Promise<{ ok: true } | { ok: false; item: Item }> => {
    const outcome = await conditionOutcome(
      sendUpdate({
        key,
        set: { entity: entityTags.webhookSending, ...(claimed ? { [claimed.attribute]: claimed.value } : {}) },
        add: { leases: new Set([token]), [endpointSet]: new Set([token]) },
        when:
          claimed && claim
            ? [
                when.any(
                  when.lacks(claimed.attribute),
                  when.compare(claimed.attribute, '<', attemptPrefix(claim.attempt)),
                ),
                ...fits,
              ]
            : fits,
        returnOnRefusal: 'ALL_OLD',
      }),
    );
    return outcome.held ? { ok: true } : { ok: false, item: outcome.item ?? {} };
  };
  const refusal = (item: Item): Extract<LeaseOutcome, { ok: false }> => {
    const holder = claimed && stringOf(item[claimed.attribute]);
    const live =
      claim !== undefined &&
      holder !== undefined &&
      holder >= attemptPrefix(claim.attempt) &&
      expiryOf(holder) > now.getTime();
    if (live) return { ok: false, full: 'claimed' };
    const full = tokensOf(item[endpointAttribute(endpointId)]).length >= limits.perEndpoint ? 'endpoint' : 'workspace';
    return { ok: false, full };
  };

  const first = await take();
  if (first.ok) return { ok: true, lease };
  const refused = refusal(first.item);
  const expired = expiredOn(first.item, now);
  if (refused.full === 'claimed' || (expired.sets.length === 0 && expired.claims.length === 0)) return refused;
  // Leases (or a claim) of senders that died: dropped, then one more try.
  if (!(await dropExpired(key, expired))) return refused;
  const second = await take();
  return second.ok ? { ok: true, lease } : refusal(second.item);
}

function expiredOn(item: Item, now: Date): Expired {
  const entries = Object.entries(item);
  return {
    sets: entries
      .filter(([name]) => name === 'leases' || name.startsWith(ENDPOINT_PREFIX))
      .map(([name, value]) => [name, tokensOf(value).filter((token) => expiryOf(token) <= now.getTime())] as const)
      .filter(([, tokens]) => tokens.length > 0),
    claims: entries
      .filter(([name]) => name.startsWith(CLAIM_PREFIX))
      .map(([name, value]) => [name, stringOf(value) ?? ''] as const)
      .filter(([, value]) => value !== '' && expiryOf(value) <= now.getTime()),
  };
}

/** Drops tokens and claims; false when a claim to drop changed meanwhile (nothing is dropped then). */
async function dropExpired(key: ItemKey, { sets, claims }: Expired): Promise<boolean> {
  return conditionHeld(
    sendUpdate({
      key,
      remove: claims.map(([name]) => name),
      delete: Object.fromEntries(sets.map(([name, tokens]) => [name, new Set(tokens)])),
      when: claims.map(([name, value]) => when.is(name, value)),
    }),
  );
}

/** Gives the lease (and its claim, while it is still this lease's) back: one small write. */
export async function releaseSendLease(lease: SendLease): Promise<void> {
  const key = keys.webhookWorkspaceSending(lease.workspaceId);
  const sets: Expired['sets'] = [
    ['leases', [lease.token]],
    [endpointAttribute(lease.endpointId), [lease.token]],
  ];
  if (lease.claim && (await dropExpired(key, { sets, claims: [[lease.claim.attribute, lease.claim.value]] }))) return;
  // No claim, or another sender took it over (after this one's lease expired): the tokens alone.
  await dropExpired(key, { sets, claims: [] });
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
  // Compare-and-set on the endpoint's booked slot; a refusal says which slot is booked, the next try builds on it.
  let booked: Condition = when.any(when.lacks('next_send_at'), when.compare('next_send_at', '<=', now.toISOString()));
  let sendAt = now;
  const book = async (): Promise<PaceOutcome> => {
    const outcome = await conditionOutcome(
      sendUpdate({
        key,
        set: {
          entity: entityTags.webhookSending,
          next_send_at: new Date(sendAt.getTime() + spacingMs).toISOString(),
        },
        when: booked,
        returnOnRefusal: 'ALL_OLD',
      }),
    );
    if (outcome.held) return { ok: true, sendAt };
    const taken = stringOf(outcome.item?.next_send_at);
    if (taken) {
      const takenAt = new Date(taken);
      if (takenAt.getTime() - now.getTime() > maxWaitMs) return { ok: false, freeAt: takenAt };
      sendAt = takenAt.getTime() <= now.getTime() ? now : takenAt;
      booked = when.is('next_send_at', taken);
    }
    throw new SlotTaken();
  };
  try {
    return await retry(book, { tries: 5, baseDelayMs: 0, retryable: (error) => error instanceof SlotTaken });
  } catch (error) {
    if (!(error instanceof SlotTaken)) throw error;
    return { ok: false, freeAt: new Date(now.getTime() + spacingMs) };
  }
}

/** Another sender booked the slot this try aimed at: tried again from the slot it booked. */
class SlotTaken extends Error {}
