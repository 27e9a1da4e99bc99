/**
 * Passkeys (WebAuthn): the options the browser's `navigator.credentials.create()/get()` take and
 * the responses they return, in their JSON form (WebAuthn Level 3, `toJSON()`), as
 * `@simplewebauthn/browser` produces and consumes them.
 */
import * as z from 'zod';
import { DisplayName, Timestamp, Uuid } from './common.js';

const Base64Url = z.string().regex(/^[A-Za-z0-9_-]*$/, 'must be base64url (no padding)');

/** Credential IDs are at most 1023 bytes (WebAuthn); other fields are bounded by the 256 KiB body. */
const CredentialId = Base64Url.min(1).max(1400);

/** The extensions' outputs; only credProps is read (other members are accepted and dropped). */
const ClientExtensionResults = z.object({ credProps: z.object({ rk: z.boolean().optional() }).optional() });

export const Passkey = z
  .object({
    id: Uuid,
    name: z.string(),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable().meta({ description: 'The last sign-in with it; null until the first.' }),
  })
  .meta({ id: 'Passkey' });

export const PasskeyParams = z.strictObject({ passkey_id: Uuid });

/** A PublicKeyCredential in its JSON form (`credential.toJSON()`), around the ceremony's own `response`. */
const credentialJson = <R extends z.ZodObject>(response: R, id: string, ceremony: string) =>
  z
    .object({
      id: CredentialId,
      rawId: CredentialId,
      type: z.literal('public-key'),
      response,
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      clientExtensionResults: ClientExtensionResults,
    })
    .meta({
      id,
      description: `What \`navigator.credentials.${ceremony}()\` returned, in its JSON form (\`credential.toJSON()\`).`,
    });

export const RegistrationResponse = credentialJson(
  z.object({
    clientDataJSON: Base64Url.min(1),
    attestationObject: Base64Url.min(1),
    transports: z.array(z.string().max(32)).max(10).optional(),
    authenticatorData: Base64Url.optional(),
    publicKey: Base64Url.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  'PasskeyRegistrationResponse',
  'create',
);

export const AuthenticationResponse = credentialJson(
  z.object({
    clientDataJSON: Base64Url.min(1),
    authenticatorData: Base64Url.min(1),
    signature: Base64Url.min(1),
    // A user handle is at most 64 bytes (WebAuthn).
    userHandle: Base64Url.max(86).optional(),
  }),
  'PasskeyAuthenticationResponse',
  'get',
);

export const AddPasskeyBody = z.strictObject({
  name: DisplayName(100).meta({ description: 'What the person calls it ("Laptop", "Phone").' }),
  response: RegistrationResponse,
});

export const PasskeySignInBody = z.strictObject({
  challenge_id: Uuid.meta({ description: 'From POST /v1/sessions/passkey-options.' }),
  response: AuthenticationResponse,
});

const CredentialDescriptor = z.object({
  id: Base64Url,
  type: z.string().meta({ description: '`public-key`' }),
  transports: z.array(z.string()).optional(),
});

/** The client extensions the options ask for: credProps (whether the passkey is discoverable). */
const Extensions = z.object({ credProps: z.boolean().optional() }).optional();

/** The creation options (PublicKeyCredentialCreationOptionsJSON), for `navigator.credentials.create()`. */
export const CreationOptions = z
  .object({
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: Base64Url, name: z.string(), displayName: z.string() }),
    challenge: Base64Url,
    pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number().int() })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(CredentialDescriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.string().optional(),
        residentKey: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.string().optional(),
      })
      .optional(),
    attestation: z.string().optional(),
    attestationFormats: z.array(z.string()).optional(),
    hints: z.array(z.string()).optional(),
    extensions: Extensions,
  })
  .meta({
    id: 'PasskeyCreationOptions',
    description:
      'PublicKeyCredentialCreationOptionsJSON: pass it to `PublicKeyCredential.parseCreationOptionsFromJSON()` (or `startRegistration` of @simplewebauthn/browser).',
  });

/** The request options (PublicKeyCredentialRequestOptionsJSON), for `navigator.credentials.get()`. */
export const RequestOptions = z
  .object({
    challenge: Base64Url,
    rpId: z.string().optional(),
    timeout: z.number().int().optional(),
    allowCredentials: z.array(CredentialDescriptor).optional(),
    userVerification: z.string().optional(),
    hints: z.array(z.string()).optional(),
    extensions: Extensions,
  })
  .meta({
    id: 'PasskeyRequestOptions',
    description:
      'PublicKeyCredentialRequestOptionsJSON: pass it to `PublicKeyCredential.parseRequestOptionsFromJSON()` (or `startAuthentication` of @simplewebauthn/browser).',
  });

export const PasskeySignInOptions = z.object({
  challenge_id: Uuid.meta({
    description: 'Name it in POST /v1/sessions/passkey: the challenge answers once, within 5 minutes.',
  }),
  options: RequestOptions,
});
