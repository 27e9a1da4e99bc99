/** The passkey routes (WebAuthn): a user's passkeys, and signing in with one. */
import * as z from 'zod';
import { defineRoute } from '../route.js';
import { Session, User } from '../schemas/identity.js';
import {
  AddPasskeyBody,
  CreationOptions,
  Passkey,
  PasskeyParams,
  PasskeySignInBody,
  PasskeySignInOptions,
} from '../schemas/passkeys.js';

export const routes = {
  passkeyRegistrationOptions: defineRoute({
    method: 'POST',
    path: '/v1/me/passkeys/registration-options',
    handler: 'passkeys/registration-options',
    tag: 'Passkeys',
    summary: 'Starts adding a passkey: the creation options for the browser, valid 5 minutes.',
    description:
      'The creation options for `navigator.credentials.create()`: a discoverable credential (resident key required) with user verification required, excluding the passkeys the user has. Its challenge is stored, answers once, and expires after 5 minutes; send the result to POST /v1/me/passkeys.',
    auth: 'session',
    status: 200,
    response: CreationOptions,
    errors: [],
  }),
  addPasskey: defineRoute({
    method: 'POST',
    path: '/v1/me/passkeys',
    handler: 'passkeys/add-passkey',
    tag: 'Passkeys',
    summary: 'Adds the passkey the browser created from the registration options.',
    description:
      'Verifies the registration response against its challenge (single use, 5 minutes, issued to this user), the relying party ID and the allowed origins, and stores the passkey. A response that does not verify is `400 invalid_request` with the reason in `agent.hint` (not 401: the session is fine); a passkey registered already is `409 invalid_state`.',
    auth: 'session',
    body: AddPasskeyBody,
    status: 201,
    response: z.object({ passkey: Passkey }),
    errors: ['invalid_state'],
  }),
  listPasskeys: defineRoute({
    method: 'GET',
    path: '/v1/me/passkeys',
    handler: 'passkeys/list-passkeys',
    tag: 'Passkeys',
    summary: "The user's passkeys, oldest first.",
    auth: 'session',
    status: 200,
    response: z.object({ items: z.array(Passkey) }),
    errors: [],
  }),
  deletePasskey: defineRoute({
    method: 'DELETE',
    path: '/v1/me/passkeys/{passkey_id}',
    handler: 'passkeys/delete-passkey',
    tag: 'Passkeys',
    summary: 'Deletes one of the user’s passkeys: it signs in no more.',
    description: 'Another user’s passkey, or one already deleted, is `404 not_found`. Sessions it signed in to stay.',
    auth: 'session',
    params: PasskeyParams,
    status: 200,
    response: z.object({ deleted: z.literal(true) }),
    errors: ['not_found'],
  }),
  passkeySignInOptions: defineRoute({
    method: 'POST',
    path: '/v1/sessions/passkey-options',
    handler: 'passkeys/sign-in-options',
    tag: 'Passkeys',
    summary: 'Starts a passkey sign-in: request options any registered passkey can answer.',
    description:
      'Request options for `navigator.credentials.get()` without an allowed list (discoverable credentials: the authenticator offers the passkeys it holds), user verification required. The challenge answers once, within 5 minutes; name its `challenge_id` in POST /v1/sessions/passkey.',
    auth: 'none',
    status: 200,
    response: PasskeySignInOptions,
    errors: [],
    mcp: false,
  }),
  signInWithPasskey: defineRoute({
    method: 'POST',
    path: '/v1/sessions/passkey',
    handler: 'passkeys/sign-in',
    tag: 'Passkeys',
    summary: 'Signs in with a passkey: returns a session token (st_…) valid for 30 days.',
    description:
      'A passkey is both factors (something held, verified by the authenticator): no second factor is asked. A response that is forged, replayed (its signature counter not advancing where the authenticator counts), from another origin, for another challenge, for an unknown passkey or naming another user is `401 invalid_credentials`, with the reason in `agent.hint`; the challenge is spent either way, nothing else changes. Counted with the log-in limits per client IP.',
    auth: 'none',
    body: PasskeySignInBody,
    status: 201,
    strictLimits: 'login',
    response: z.object({ session: Session, user: User }),
    errors: ['invalid_credentials'],
    mcp: false,
  }),
};
