/**
 * The passkey calls of the console (the Security page, the login page's passkey button), through
 * the typed client, and the browser's WebAuthn ceremonies in between (@simplewebauthn/browser).
 */
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { unwrap, type Schemas } from '@social-network/sdk';
import { api } from './session.js';

export type Passkey = Schemas['Passkey'];

export const passkeys = {
  list: () => unwrap(api.GET('/v1/me/passkeys')),
  /** Asks the browser (and its authenticator) for a new passkey, and adds it under `name`. */
  add: async (name: string) => {
    const options = await unwrap(api.POST('/v1/me/passkeys/registration-options'));
    // The service's options are WebAuthn's JSON form as the library reads it; the generated types spell enums as strings.
    const response = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
    return unwrap(api.POST('/v1/me/passkeys', { body: { name, response } }));
  },
  remove: (passkeyId: string) =>
    unwrap(api.DELETE('/v1/me/passkeys/{passkey_id}', { params: { path: { passkey_id: passkeyId } } })),
  /** Signs in with a passkey the authenticator offers; the new session's token and user. */
  signIn: async () => {
    const { challenge_id, options } = await unwrap(api.POST('/v1/sessions/passkey-options'));
    const response = await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
    return unwrap(api.POST('/v1/sessions/passkey', { body: { challenge_id, response } }));
  },
};
