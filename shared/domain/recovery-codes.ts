import { createHash, randomBytes } from 'node:crypto';

/**
 * Recovery codes: 10 per enabled second factor, each 140 random bits written as 28 base32
 * characters in four groups of 7 (`abcdefg-hijklmn-…`), so a person can copy one by hand. Only a SHA-256
 * of each is stored: with that much randomness a slow hash adds nothing.
 */
export const RECOVERY_CODE_COUNT = 10;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function newCode(): string {
  const bytes = randomBytes(28);
  const chars = [...bytes].map((b) => ALPHABET[b & 31]).join('');
  return chars.match(/.{7}/g)!.join('-');
}

/** What a person typed, as it was issued: case, spaces and dashes do not matter. */
const normalized = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** The stored form of a recovery code: the hash of its normalized text. */
export const recoveryCodeHash = (code: string): string =>
  createHash('sha256').update(normalized(code)).digest('base64url');

export interface IssuedRecoveryCodes {
  codes: string[];
  hashes: string[];
}

export function issueRecoveryCodes(): IssuedRecoveryCodes {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  return { codes, hashes: codes.map(recoveryCodeHash) };
}
