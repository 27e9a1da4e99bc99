import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Bearer secrets (session tokens `st_…`, API keys `sk_…`) are `<prefix>_<id>_<secret>`:
 * the id finds the stored record with one GetItem, and only a SHA-256 of the secret is stored.
 * The secret has 256 bits of entropy, so a fast hash is enough; comparison is constant-time.
 */
export type TokenKind = 'st' | 'sk';

export interface IssuedToken {
  token: string;
  secretHash: string;
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/**
 * Single-use account tokens sent by mail, in the same shape: `ev_…` verifies an email address,
 * `pr_…` resets a password. A family of their own, so that no bearer check ever takes one.
 */
export type MailTokenKind = 'ev' | 'pr';

export function issueToken(kind: TokenKind | MailTokenKind, id: string): IssuedToken {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${kind}_${id.replaceAll('-', '')}_${secret}`, secretHash: hash(secret) };
}

const TOKEN = /^(st|sk)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const MAIL_TOKEN = /^(ev|pr)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export interface ParsedToken {
  kind: TokenKind;
  id: string;
  secret: string;
}

const isTokenKind = (kind: string | undefined): kind is TokenKind => kind === 'st' || kind === 'sk';

export function parseToken(token: string): ParsedToken | undefined {
  const [, kind, hex, secret] = TOKEN.exec(token) ?? [];
  if (!isTokenKind(kind) || !hex || !secret) return undefined;
  return { kind, id: uuidOf(hex), secret };
}

/** A mail token of `kind`: its record's id and its secret; undefined when it is not one. */
export function parseMailToken(token: string, kind: MailTokenKind): { id: string; secret: string } | undefined {
  const [, found, hex, secret] = MAIL_TOKEN.exec(token) ?? [];
  if (found !== kind || !hex || !secret) return undefined;
  return { id: uuidOf(hex), secret };
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hash(secret));
  const expected = Buffer.from(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** What a key list shows so a person can tell keys apart: kind and first id characters. */
export const tokenPrefix = (token: string): string => token.slice(0, 11);
