/**
 * Signing in with a passkey: request options any of the user's discoverable passkeys can answer,
 * and the check of an assertion against the stored passkey. Only the two sign-in routes import
 * this module; it leaves the registration's attestation verifiers out of their bundles.
 */
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { PasskeyRecord } from '../domain/passkeys.js';
import { readClientData } from './client-data.js';
import type { PasskeyRefusal } from './refusals.js';
import { CEREMONY_TIMEOUT_MS, relyingParty } from './relying-party.js';

/** Request options with no allowed list: the authenticator offers the passkeys it holds for this RP. */
export function signInOptions(challenge: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    // As bytes: a string would be taken as text and encoded again.
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'required',
  });
}

/** The user id a discoverable credential's response names (its user handle, set at registration). */
export function userHandleOf(response: AuthenticationResponseJSON): string | undefined {
  const handle = response.response.userHandle;
  return handle ? Buffer.from(handle, 'base64url').toString('utf8') : undefined;
}

/** Checks an assertion against `challenge` and `passkey`; the passkey's new counter, or why not. */
export async function verifySignIn(
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: Pick<PasskeyRecord, 'credential_id' | 'public_key' | 'counter' | 'transports' | 'user_id'>,
): Promise<{ counter: number } | { refused: PasskeyRefusal }> {
  const { rpID, origins } = relyingParty();
  const clientData = readClientData(response.response.clientDataJSON);
  if (!clientData) return { refused: 'malformed' };
  if (clientData.challenge !== challenge) return { refused: 'otherChallenge' };
  if (!origins.includes(clientData.origin)) return { refused: 'origin' };
  if (userHandleOf(response) !== passkey.user_id) return { refused: 'otherUser' };
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id,
        publicKey: Buffer.from(passkey.public_key, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports,
      },
    });
    return verified ? { counter: authenticationInfo.newCounter } : { refused: 'signature' };
  } catch (error) {
    // The library throws on each check that fails; a counter that did not advance is the one worth naming.
    return { refused: error instanceof Error && /counter/i.test(error.message) ? 'counter' : 'signature' };
  }
}
