/** Who passkeys are made for and checked against: the relying party of the settings (config.ts). */
import { config } from '../config.js';
import { PASSKEY_CHALLENGE_SECONDS } from '../domain/passkeys.js';

/** The name an authenticator shows beside the account when it offers the passkey. */
export const RP_NAME = 'Social network';

/** The options' timeout: the browser gives up when the server stops accepting the challenge. */
export const CEREMONY_TIMEOUT_MS = PASSKEY_CHALLENGE_SECONDS * 1000;

export const relyingParty = () => ({ rpID: config.webauthnRpId, origins: config.webauthnOrigins });
