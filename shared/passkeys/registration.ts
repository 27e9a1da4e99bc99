/**
 * Adding a passkey: the check of what the browser made of the creation options, by the WebAuthn
 * library. Only POST /v1/me/passkeys imports this module, and with it the library's attestation
 * verifiers.
 */
import { verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import type { PasskeyRecord } from '../domain/passkeys.js';
import { PASSKEY_ALGORITHM_IDS } from './algorithms.js';
import { readClientData } from './client-data.js';
import { spkiOf } from './public-key.js';
import type { PasskeyRefusal } from './refusals.js';
import { relyingParty } from './relying-party.js';

/** What a challenge of this service looks like (newChallengeValue: 32 bytes, base64url), before it becomes a key. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The challenge a registration response answers (how its stored challenge is found); undefined when it cannot be one of ours. */
export function registrationChallengeOf(response: RegistrationResponseJSON): string | undefined {
  const challenge = readClientData(response.response.clientDataJSON)?.challenge;
  return challenge !== undefined && CHALLENGE.test(challenge) ? challenge : undefined;
}

/** What a verified registration stores of the new credential. */
export type RegisteredCredential = Pick<
  PasskeyRecord,
  'credential_id' | 'public_key' | 'algorithm' | 'counter' | 'transports' | 'device_type' | 'backed_up'
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
      supportedAlgorithmIDs: PASSKEY_ALGORITHM_IDS,
    });
    if (!verified) return { refused: 'signature' };
    const { credential } = registrationInfo;
    const key = spkiOf(credential.publicKey);
    if (!key) return { refused: 'signature' };
    return {
      credential: {
        credential_id: credential.id,
        ...key,
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
