import { describe, expect, it } from 'vitest';
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  scryptCost,
  verifyPassword,
} from '../../shared/domain/passwords.js';

const LOW = scryptCost(12);

describe('password hashing (scrypt)', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery', LOW);
    expect(stored.startsWith('scrypt$4096$8$1$')).toBe(true);
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password', LOW)).not.toBe(await hashPassword('same password', LOW));
  });

  it('defaults to OWASP guidance (N=2^17, r=8, p=1) and verifies at that cost', async () => {
    expect(scryptCost(17)).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await hashPassword('correct horse battery', scryptCost(17));
    expect(stored.startsWith('scrypt$131072$8$1$')).toBe(true);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
  });

  it('asks for a new hash when the stored one is cheaper than the current cost, and only then', async () => {
    const old = await hashPassword('pw', LOW);
    expect(needsRehash(old, scryptCost(13))).toBe(true);
    expect(needsRehash(old, LOW)).toBe(false);
    expect(needsRehash('scrypt$16384$8$1$AA==$AA==', scryptCost(14))).toBe(false);
    expect(needsRehash('scrypt$16384$8$1$AA==$AA==', scryptCost(17))).toBe(true);
  });

  it('never verifies against the dummy hash used for unknown emails', async () => {
    expect(await verifyPassword('', dummyPasswordHash(LOW))).toBe(false);
    expect(await verifyPassword('anything at all', dummyPasswordHash(LOW))).toBe(false);
  });
});
