/** Passkeys (WebAuthn credentials) and the challenges of their ceremonies: records and factories. */
import { randomBytes } from 'node:crypto';
import { idFromParts } from './ids.js';

/** How long a ceremony's challenge can be answered (the options' timeout says the same to the browser). */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;

export interface PasskeyRecord {
  /** Derived from the credential ID (passkeyIdOf), so the credential an assertion names is one GetItem away. */
  id: string;
  user_id: string;
  name: string;
  /** The WebAuthn credential ID, base64url. */
  credential_id: string;
  /** The public key as SubjectPublicKeyInfo DER, base64url (what node:crypto reads at each sign-in). */
  public_key: string;
  /** Its COSE signature algorithm (-7 ES256, -8 EdDSA, -257 RS256). */
  algorithm: number;
  /** The authenticator's signature counter; 0 for authenticators that do not count. */
  counter: number;
  transports: string[];
  /** `singleDevice` or `multiDevice` (synced), as the authenticator said at registration. */
  device_type: string;
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
}

export type PasskeyCeremony = 'registration' | 'authentication';

export interface PasskeyChallengeRecord {
  id: string;
  ceremony: PasskeyCeremony;
  /** base64url, as the options carry it and clientDataJSON returns it. */
  challenge: string;
  /** The user a registration is for; null for a sign-in (any passkey may answer it). */
  user_id: string | null;
  expires_at: string;
}

/** The passkey id of a credential ID: a UUID of its hash, so ids look like every other id and are found by key. */
export const passkeyIdOf = (credentialId: string): string => idFromParts('passkey', credentialId);

export function newPasskey(
  now: Date,
  fields: Pick<
    PasskeyRecord,
    | 'user_id'
    | 'name'
    | 'credential_id'
    | 'public_key'
    | 'algorithm'
    | 'counter'
    | 'transports'
    | 'device_type'
    | 'backed_up'
  >,
): PasskeyRecord {
  return { id: passkeyIdOf(fields.credential_id), ...fields, created_at: now.toISOString(), last_used_at: null };
}

/** A fresh challenge of 256 random bits, base64url. */
export const newChallengeValue = (): string => randomBytes(32).toString('base64url');

/**
 * A ceremony's challenge, valid PASSKEY_CHALLENGE_SECONDS. A registration's is found by its value
 * (the response's clientDataJSON carries it), a sign-in's by the id handed out with the options.
 */
export function newPasskeyChallenge(
  now: Date,
  fields: Pick<PasskeyChallengeRecord, 'id' | 'ceremony' | 'challenge' | 'user_id'>,
): PasskeyChallengeRecord {
  return { ...fields, expires_at: new Date(now.getTime() + PASSKEY_CHALLENGE_SECONDS * 1000).toISOString() };
}
