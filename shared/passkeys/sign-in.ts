/**
 * Signing in with a passkey: the request options any of the user's discoverable passkeys can
 * answer, and the check of an assertion against the stored passkey (WebAuthn Level 3, §7.2
 * "Verifying an Authentication Assertion"), with node:crypto alone. The WebAuthn library's
 * assertion check imports its X.509 and ASN.1 stack (≈ 280 KiB, for attestation certificates a
 * sign-in never sees), and the sign-in is the hot, latency-bound route: its bundle stays without it.
 */
import { createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import type { PasskeyRecord } from '../domain/passkeys.js';
import { digestOf } from './algorithms.js';
import { readClientData } from './client-data.js';
import type { PasskeyRefusal } from './refusals.js';
import { CEREMONY_TIMEOUT_MS, relyingParty } from './relying-party.js';

/** PublicKeyCredentialRequestOptionsJSON with no allowed list: the authenticator offers the passkeys it holds for this RP. */
export const signInOptions = (challenge: string) => ({
  challenge,
  rpId: relyingParty().rpID,
  timeout: CEREMONY_TIMEOUT_MS,
  userVerification: 'required',
  allowCredentials: [] as { id: string; type: string }[],
});

/** The assertion a sign-in sends (`navigator.credentials.get()` in its JSON form). */
export interface AssertionJson {
  id: string;
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string | undefined };
}

/** The user id a discoverable credential's response names (its user handle, set at registration). */
export function userHandleOf(response: AssertionJson): string | undefined {
  const handle = response.response.userHandle;
  return handle ? Buffer.from(handle, 'base64url').toString('utf8') : undefined;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
/** rpIdHash (32 bytes), flags (1), signCount (4): what every authenticator data starts with. */
const AUTH_DATA_HEAD = 37;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** Checks an assertion against `challenge` and `passkey`; the passkey's new counter, or why not. */
export function verifySignIn(
  response: AssertionJson,
  challenge: string,
  passkey: Pick<PasskeyRecord, 'public_key' | 'algorithm' | 'counter' | 'user_id'>,
): { counter: number } | { refused: PasskeyRefusal } {
  const { rpID, origins } = relyingParty();
  const clientDataJSON = Buffer.from(response.response.clientDataJSON, 'base64url');
  const clientData = readClientData(response.response.clientDataJSON);
  if (!clientData || clientData.type !== 'webauthn.get') return { refused: 'malformed' };
  if (clientData.challenge !== challenge) return { refused: 'otherChallenge' };
  if (!origins.includes(clientData.origin) || clientData.crossOrigin) return { refused: 'origin' };
  if (userHandleOf(response) !== passkey.user_id) return { refused: 'otherUser' };

  const authData = Buffer.from(response.response.authenticatorData, 'base64url');
  if (authData.length < AUTH_DATA_HEAD) return { refused: 'malformed' };
  const flags = authData[32]!;
  const rpIdMatches = timingSafeEqual(authData.subarray(0, 32), sha256(rpID));
  if (!rpIdMatches || !(flags & FLAG_UP) || !(flags & FLAG_UV)) return { refused: 'signature' };

  const digest = digestOf(passkey.algorithm);
  if (digest === undefined) return { refused: 'signature' };
  const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
  const key = createPublicKey({ key: Buffer.from(passkey.public_key, 'base64url'), format: 'der', type: 'spki' });
  const signature = Buffer.from(response.response.signature, 'base64url');
  if (!verify(digest, signed, key, signature)) return { refused: 'signature' };

  // Authenticators that count must count up; those that do not (synced passkeys) always say 0.
  const counter = authData.readUInt32BE(33);
  if ((counter > 0 || passkey.counter > 0) && counter <= passkey.counter) return { refused: 'counter' };
  return { counter };
}
