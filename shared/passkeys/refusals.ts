/**
 * Why a passkey response was refused, each with what the caller can do: a sign-in answers them as
 * `401 invalid_credentials`, a registration as `400 invalid_request` (its session is fine).
 * Hints never echo what the response carried.
 */
import { AppError, type ErrorCode } from '../errors.js';

export const passkeyRefusals = {
  malformed: 'The response is not a WebAuthn response: send what the browser returned (its JSON form) unchanged.',
  challenge:
    'The challenge is unknown, used or expired (each answers once, within 5 minutes): ask for new options and try again.',
  otherChallenge:
    'The response answers another challenge than the one named: use the options the challenge_id came with.',
  origin: "The response comes from an origin this service does not accept: use the console's own address.",
  unknownPasskey:
    'This passkey is not registered here (it may have been deleted): log in with your password and add it again on the Security page.',
  otherUser: "The response's user handle is not the passkey's owner.",
  counter: "The passkey's signature counter did not advance: the response was replayed or the authenticator cloned.",
  signature: "The response's signature or authenticator data does not verify against the passkey.",
  registered: 'This passkey is registered already: it is in the list of your passkeys.',
} as const;

export type PasskeyRefusal = keyof typeof passkeyRefusals;

export const passkeyRefused = (
  code: Extract<ErrorCode, 'invalid_credentials' | 'invalid_request'>,
  reason: PasskeyRefusal,
): AppError =>
  new AppError(code, { message: 'The passkey response could not be verified.', hint: passkeyRefusals[reason] });
