/**
 * What keeps one tenant from taking the whole sender: leases on the attempts in flight, per
 * endpoint and per workspace, and the next free slot of an endpoint's own rate limit.
 *
 * A lease is an 8-byte token in a set of places of the workspace (`leases` on its sending item)
 * and one of the endpoint; the claim of each attempt in flight (`c_<delivery id prefix>` =
 * `<attempt>|<lease>`) sits beside the endpoint's places. Taking places and the claim on one item
 * is one write (`SET` the claim, `ADD` the token, conditioned on the sets' sizes and on no live
 * claim of that attempt), giving them back another, and each write is billed by the item's size:
 *
 * - up to ONE_ITEM_MAX_IN_FLIGHT (the default limit is 10), everything is on the workspace's item
 *   (the endpoint's places a set `e_<endpoint id prefix>`): under 1 KB, an attempt costs two
 *   one-unit writes;
 * - above it, that item would grow ~66 bytes an attempt in flight (~4 units a write at 100): the
 *   endpoint's places and the claims go to the endpoint's sending item (which holds its few
 *   attempts and its rate-limit slot), the workspace's item keeps only the tokens (under 1 KB at
 *   100): four one-unit writes, two to take (endpoint first, so a duplicate message never holds a
 *   workspace place), two in parallel to give back.
 *
 * No write of the delivery. A sender that dies mid-attempt leaves its places and claim behind until
 * they expire (the claim's stale time); the next refusal that sees them drops them.
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
  /** The lease's member of each set it holds a place in (see `leaseToken`). */
  token: Uint8Array;
  /** Taken on the workspace's item alone (see ONE_ITEM_MAX_IN_FLIGHT). */
  oneItem: boolean;
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

/** The workspace's set of leases (and the endpoint's, on the endpoint's item). */
export const LEASES = 'leases';

/**
 * Up to this workspace in-flight limit, all of a workspace's leases and claims fit one item under
 * 1 KB (about 66 bytes an attempt): the endpoint's places are a set on the workspace's item
 * (`e_<endpoint id prefix>`), and an attempt costs two one-unit writes. Above it, the endpoint's
 * places and the claims go to the endpoint's item, so that no write costs more than one unit:
 * four writes. Every sender of a deployment has the same limit, so all take their leases alike.
 */
export const ONE_ITEM_MAX_IN_FLIGHT = 12;

/**
 * An endpoint's set on the workspace's item is named by the first 48 bits of its (random) id; two
 * endpoints of one workspace sharing them would only share their places (stricter, never looser).
 */
const ENDPOINT_PREFIX = 'e_';
export const endpointAttribute = (endpointId: string) =>
  `${ENDPOINT_PREFIX}${endpointId.replace(/-/g, '').slice(0, 12)}`;

/** A claim is named by the first 64 bits of the delivery id (a hash): short, the item is billed by its size. */
const CLAIM_PREFIX = 'c_';
export const claimAttribute = (deliveryId: string) => `${CLAIM_PREFIX}${deliveryId.replace(/-/g, '').slice(0, 16)}`;

/** `<attempt, 4 digits>|`: claim values sort by attempt, so a claim of an earlier attempt never blocks a later one. */
const attemptPrefix = (attempt: number) => `${String(attempt).padStart(4, '0')}|`;

/**
 * A binary token of 8 bytes (the workspace's set holds one per attempt in flight): the expiry,
 * epoch seconds in 4 bytes, and 32 random bits, which keep two leases expiring in the same second
 * apart (a shared member would count two attempts as one).
 */
const leaseToken = (expiresAt: Date): Uint8Array => {
  const token = Buffer.alloc(8);
  token.writeUInt32BE(epochSeconds(expiresAt));
  randomBytes(4).copy(token, 4);
  return token;
};
const tokenBytes = (token: Uint8Array) => Buffer.from(token.buffer, token.byteOffset, token.byteLength);
const tokenExpiry = (token: Uint8Array): number => tokenBytes(token).readUInt32BE(0) * 1000;
/** The token in a claim's value: `<expiry, epoch seconds base 36>|<random bits>`. */
const tokenText = (token: Uint8Array) =>
  `${tokenBytes(token).readUInt32BE(0).toString(36)}|${tokenBytes(token).subarray(4).toString('base64url')}`;

/** When a claim value `<attempt>|<expiry>|<random>` expires (epoch ms). */
const claimExpiry = (value: string): number => {
  const parts = value.split('|');
  return parseInt(parts[parts.length - 2] ?? '0', 36) * 1000;
};

/** The tokens of the set and the value of a string attribute, as a refused update returns them. */
const tokensOf = (value: unknown): Uint8Array[] =>
  value instanceof Set ? [...(value as Set<unknown>)].filter((token) => token instanceof Uint8Array) : [];
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

type Item = Record<string, unknown>;

/** What to drop from an item: tokens from sets, and claims (each only if it still holds that value). */
interface Dropped {
  sets: (readonly [string, readonly Uint8Array[]])[];
  claims: (readonly [string, string])[];
}

/**
 * A lease on one more attempt in flight to `endpointId` of `workspaceId`, if neither is at its
 * limit, and with `claim`, the claim of that attempt if no other sender holds it. The endpoint's
 * place and the claim are taken first, so a duplicate message never holds one of the workspace's
 * places (that sequential second write is the price of keeping the workspace's item small); when
 * the workspace is full, the endpoint's place and the claim are given back.
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
    value: `${attemptPrefix(claim.attempt)}${tokenText(token)}`,
  };
  const oneItem = limits.perWorkspace <= ONE_ITEM_MAX_IN_FLIGHT;
  const lease: SendLease = { workspaceId, endpointId, token, oneItem, ...(claimed ? { claim: claimed } : {}) };
  const withClaim = claimed && claim && { ...claimed, attempt: claim.attempt };
  const workspace = keys.webhookWorkspaceSending(workspaceId);
  if (oneItem) {
    const endpointSet = endpointAttribute(endpointId);
    const taken = await takePlace(
      workspace,
      token,
      now,
      [
        [LEASES, limits.perWorkspace],
        [endpointSet, limits.perEndpoint],
      ],
      withClaim,
    );
    if (taken.outcome === 'taken') return { ok: true, lease };
    if (taken.outcome === 'claimed') return { ok: false, full: 'claimed' };
    return {
      ok: false,
      full: tokensOf(taken.item[endpointSet]).length >= limits.perEndpoint ? 'endpoint' : 'workspace',
    };
  }
  const onEndpoint = await takePlace(
    keys.webhookEndpointSending(endpointId),
    token,
    now,
    [[LEASES, limits.perEndpoint]],
    withClaim,
  );
  if (onEndpoint.outcome !== 'taken')
    return { ok: false, full: onEndpoint.outcome === 'claimed' ? 'claimed' : 'endpoint' };
  if ((await takePlace(workspace, token, now, [[LEASES, limits.perWorkspace]])).outcome === 'taken')
    return { ok: true, lease };
  await giveBackOnEndpoint(lease);
  return { ok: false, full: 'workspace' };
}

/**
 * One place in each of the item's sets if each holds fewer than its limit (and, with `claim`, the claim if no
 * live claim of that attempt or a later one is there): one conditional update. When refused,
 * expired tokens and claims found on the item are dropped and the place is tried once more.
 */
async function takePlace(
  key: ItemKey,
  token: Uint8Array,
  now: Date,
  sets: (readonly [string, number])[],
  claim?: { attribute: string; value: string; attempt: number },
): Promise<{ outcome: 'taken' } | { outcome: 'full' | 'claimed'; item: Item }> {
  const fits: Condition[] = sets.map(([name, limit]) => when.any(when.lacks(name), when.size(name, '<', limit)));
  const take = async (): Promise<{ ok: true } | { ok: false; item: Item }> => {
    const outcome = await conditionOutcome(
      sendUpdate({
        key,
        set: { entity: entityTags.webhookSending, ...(claim ? { [claim.attribute]: claim.value } : {}) },
        add: Object.fromEntries(sets.map(([name]) => [name, new Set([token])])),
        when: claim
          ? [
              when.any(when.lacks(claim.attribute), when.compare(claim.attribute, '<', attemptPrefix(claim.attempt))),
              ...fits,
            ]
          : fits,
        returnOnRefusal: 'ALL_OLD',
      }),
    );
    return outcome.held ? { ok: true } : { ok: false, item: outcome.item ?? {} };
  };
  const refusal = (item: Item): 'full' | 'claimed' => {
    const holder = claim && stringOf(item[claim.attribute]);
    const live =
      claim !== undefined &&
      holder !== undefined &&
      holder >= attemptPrefix(claim.attempt) &&
      claimExpiry(holder) > now.getTime();
    return live ? 'claimed' : 'full';
  };

  const first = await take();
  if (first.ok) return { outcome: 'taken' };
  const refused = { outcome: refusal(first.item), item: first.item };
  const expired = expiredOn(first.item, now);
  if (refused.outcome === 'claimed' || (expired.sets.length === 0 && expired.claims.length === 0)) return refused;
  // Places (or a claim) of senders that died: dropped, then one more try.
  if (!(await drop(key, expired))) return refused;
  const second = await take();
  return second.ok ? { outcome: 'taken' } : { outcome: refusal(second.item), item: second.item };
}

function expiredOn(item: Item, now: Date): Dropped {
  const entries = Object.entries(item);
  return {
    sets: entries
      .filter(([name]) => name === LEASES || name.startsWith(ENDPOINT_PREFIX))
      .map(([name, value]) => [name, tokensOf(value).filter((token) => tokenExpiry(token) <= now.getTime())] as const)
      .filter(([, tokens]) => tokens.length > 0),
    claims: entries
      .filter(([name]) => name.startsWith(CLAIM_PREFIX))
      .map(([name, value]) => [name, stringOf(value) ?? ''] as const)
      .filter(([, value]) => value !== '' && claimExpiry(value) <= now.getTime()),
  };
}

/** Drops tokens and claims; false when a claim to drop changed meanwhile (nothing is dropped then). */
async function drop(key: ItemKey, { sets, claims }: Dropped): Promise<boolean> {
  return conditionHeld(
    sendUpdate({
      key,
      remove: claims.map(([name]) => name),
      delete: Object.fromEntries(sets.map(([name, tokens]) => [name, new Set(tokens)])),
      when: claims.map(([name, value]) => when.is(name, value)),
    }),
  );
}

/** The places (and the claim, while it is still this lease's) on one item: one small write. */
async function giveBack(key: ItemKey, sets: string[], lease: SendLease): Promise<void> {
  const dropped = { sets: sets.map((name) => [name, [lease.token]] as const), claims: [] };
  if (lease.claim && (await drop(key, { ...dropped, claims: [[lease.claim.attribute, lease.claim.value]] }))) return;
  // No claim, or another sender took it over (after this one's lease expired): the places alone.
  await drop(key, dropped);
}

const giveBackOnEndpoint = (lease: SendLease) =>
  giveBack(keys.webhookEndpointSending(lease.endpointId), [LEASES], lease);

/**
 * Gives the lease (and its claim) back: one small write on the workspace's item, or with the
 * endpoint's places on its own item, one on each, in parallel.
 */
export async function releaseSendLease(lease: SendLease): Promise<void> {
  const workspace = keys.webhookWorkspaceSending(lease.workspaceId);
  if (lease.oneItem) return giveBack(workspace, [LEASES, endpointAttribute(lease.endpointId)], lease);
  await Promise.all([giveBackOnEndpoint(lease), drop(workspace, { sets: [[LEASES, [lease.token]]], claims: [] })]);
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
