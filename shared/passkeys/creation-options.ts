/**
 * The creation options for adding a passkey (PublicKeyCredentialCreationOptionsJSON), written out
 * rather than made by the WebAuthn library: they are a few fixed fields, and importing the library
 * would bring its attestation verifiers (≈ 280 KiB) into this route's bundle.
 */
import type { UserRecord } from '../domain/entities.js';
import type { PasskeyRecord } from '../domain/passkeys.js';
import { PASSKEY_ALGORITHM_IDS } from './algorithms.js';
import { CEREMONY_TIMEOUT_MS, relyingParty, RP_NAME } from './relying-party.js';

/** A discoverable credential (resident key) with user verification, none of `existing` again. */
export function creationOptions(
  user: Pick<UserRecord, 'id' | 'email' | 'name'>,
  existing: readonly Pick<PasskeyRecord, 'credential_id' | 'transports'>[],
  challenge: string,
) {
  return {
    challenge,
    rp: { name: RP_NAME, id: relyingParty().rpID },
    // The user handle a sign-in's response returns: the user id, so the sign-in reads the user at once.
    user: { id: Buffer.from(user.id).toString('base64url'), name: user.email, displayName: user.name },
    pubKeyCredParams: PASSKEY_ALGORITHM_IDS.map((alg) => ({ alg, type: 'public-key' as const })),
    timeout: CEREMONY_TIMEOUT_MS,
    attestation: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, type: 'public-key', transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    // credProps: the browser says whether it made the passkey discoverable.
    extensions: { credProps: true },
  };
}
