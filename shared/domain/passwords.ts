import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Stored as `scrypt$N$r$p$salt$hash` so the cost can rise without breaking old hashes: a hash made
 * at a lower N still verifies, and `needsRehash` tells log-in to replace it.
 * OWASP's current minimum for scrypt is N=2^17, r=8, p=1 (128 MiB, so `maxmem` is raised).
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const scryptCost = (log2N: number): ScryptCost => ({ N: 2 ** log2N, r: 8, p: 1 });

const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; leave headroom above that.
  const maxmem = 256 * cost.N * cost.r;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...cost, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

function parse(stored: string): { cost: ScryptCost; salt: Buffer; hash: Buffer } | undefined {
  const [algo, n, r, p, salt, hash] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (algo !== 'scrypt' || !salt || !hash || !Object.values(cost).every((v) => Number.isInteger(v) && v > 0))
    return undefined;
  return { cost, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

export async function hashPassword(password: string, cost: ScryptCost): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.cost);
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** True when the stored hash was made at a lower cost than the current one. */
export function needsRehash(stored: string, current: ScryptCost): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.cost.N < current.N || parsed.cost.r < current.r || parsed.cost.p < current.p;
}

/**
 * A hash of nothing at the current cost, verified against when the email is unknown so both
 * paths take the same time.
 */
export const dummyPasswordHash = (cost: ScryptCost): string =>
  ['scrypt', cost.N, cost.r, cost.p, 'AAAAAAAAAAAAAAAAAAAAAA==', Buffer.alloc(KEY_LENGTH).toString('base64')].join('$');
