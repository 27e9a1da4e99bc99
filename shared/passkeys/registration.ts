/**
 * Adding a passkey: the creation options for a signed-in user, and the check of what the browser
 * made of them. Only the two registration routes import this module, and with it the library's
 * attestation verifiers.
 */
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { UserRecord } from '../domain/entities.js';
import type { PasskeyRecord } from '../domain/passkeys.js';
import { readClientData } from './client-data.js';
import type { PasskeyRefusal } from './refusals.js';
import { CEREMONY_TIMEOUT_MS, relyingParty, RP_NAME } from './relying-party.js';

/** Creation options: a discoverable credential (resident key) with user verification, none of `existing` again. */
export function registrationOptions(
  user: Pick<UserRecord, 'id' | 'email' | 'name'>,
  existing: readonly Pick<PasskeyRecord, 'credential_id' | 'transports'>[],
  challenge: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty().rpID,
    userName: user.email,
    userDisplayName: user.name,
    // The user handle a sign-in's response returns: the user id, so the sign-in reads the user at once.
    userID: new TextEncoder().encode(user.id),
    // As bytes: a string would be taken as text and encoded again.
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
}

/** The challenge a registration response answers (how its stored challenge is found); undefined when unreadable. */
export const registrationChallengeOf = (response: RegistrationResponseJSON): string | undefined =>
  readClientData(response.response.clientDataJSON)?.challenge;

/** What a verified registration stores of the new credential. */
export type RegisteredCredential = Pick<
  PasskeyRecord,
  'credential_id' | 'public_key' | 'counter' | 'transports' | 'device_type' | 'backed_up'
>;

/** Checks a registration response against its challenge and the relying party; the credential, or why not. */
export async function verifyRegistration(
  response: RegistrationResponseJSON,
  challenge: string,
): Promise<{ credential: RegisteredCredential } | { refused: PasskeyRefusal }> {
  const { rpID, origins } = relyingParty();
  const clientData = readClientData(response.response.clientDataJSON);
  if (!clientData) return { refused: 'malformed' };
  if (!origins.includes(clientData.origin)) return { refused: 'origin' };
  try {
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
    if (!verified) return { refused: 'signature' };
    const { credential } = registrationInfo;
    return {
      credential: {
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        device_type: registrationInfo.credentialDeviceType,
        backed_up: registrationInfo.credentialBackedUp,
      },
    };
  } catch {
    // The library throws on each check that fails (challenge, RP ID hash, flags, attestation).
    return { refused: 'signature' };
  }
}
