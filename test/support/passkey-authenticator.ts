/**
 * A software passkey authenticator, as a browser and its platform authenticator would answer the
 * service's options: ES256 keys from node:crypto, `none` attestation, authenticator data with the
 * RP ID hash, flags, signature counter and attested credential data (a COSE key), and the client
 * data a browser at `origin` writes. Each response can be spoiled in one way, to show what the
 * service refuses.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCbor, type CborValue } from './cbor.js';

/** The parts of the service's options the authenticator reads. */
export interface CreationOptionsJson {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}
export interface RequestOptionsJson {
  challenge: string;
  rpId?: string;
}

export interface StoredCredential {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  rpId: string;
  /** The user handle (base64url) the creation options named. */
  userHandle: string;
  counter: number;
}

export interface AuthenticatorSettings {
  /** The origin the "browser" reports in clientDataJSON. */
  origin: string;
  /** Whether the signature counter moves with each signature (0 for ever otherwise, as synced passkeys do). */
  counts?: boolean;
}

/** What one ceremony may carry wrongly. */
export interface Spoil {
  origin?: string;
  /** The challenge written into clientDataJSON instead of the options' one. */
  challenge?: string;
  /** The counter signed instead of the next one. */
  counter?: number;
  /** A user handle other than the credential's. */
  userHandle?: string;
  /** Flip a bit of the signature. */
  forgeSignature?: boolean;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
/** The all-zero AAGUID of an authenticator that does not say what it is. */
const NO_AAGUID = Buffer.alloc(16);

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(counter);
  return out;
}

/** The COSE_Key (RFC 9053) of a P-256 public key: kty EC2, alg ES256, crv P-256, x, y. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return encodeCbor(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** The PublicKeyCredential's JSON form (`toJSON()`) around a ceremony's response. */
const credentialJson = <R>(credential: StoredCredential, response: R) => ({
  id: credential.id,
  rawId: credential.id,
  type: 'public-key' as const,
  response,
  authenticatorAttachment: 'platform' as const,
  clientExtensionResults: {},
});

export class SoftwareAuthenticator {
  readonly credentials = new Map<string, StoredCredential>();

  constructor(private readonly settings: AuthenticatorSettings) {}

  /** Answers creation options with a new discoverable ES256 credential (`navigator.credentials.create`, JSON form). */
  register(options: CreationOptionsJson, spoil: Spoil & { reuse?: StoredCredential } = {}) {
    const rpId = options.rp.id ?? new URL(this.settings.origin).hostname;
    const credential = spoil.reuse ?? this.newCredential(rpId, options.user.id);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      counterBytes(credential.counter),
      NO_AAGUID,
      Buffer.from([0, Buffer.from(credential.id, 'base64url').length]),
      Buffer.from(credential.id, 'base64url'),
      coseKey(credential.publicKey),
    ]);
    const attestationObject = encodeCbor(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const data = clientData(
      'webauthn.create',
      spoil.challenge ?? options.challenge,
      spoil.origin ?? this.settings.origin,
    );
    this.credentials.set(credential.id, credential);
    return credentialJson(credential, {
      clientDataJSON: b64url(data),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    });
  }

  /** Answers request options with `credential` (`navigator.credentials.get`, JSON form). */
  signIn(options: RequestOptionsJson, credential: StoredCredential, spoil: Spoil = {}) {
    if (this.settings.counts && spoil.counter === undefined) credential.counter += 1;
    const authData = Buffer.concat([
      sha256(options.rpId ?? credential.rpId),
      Buffer.from([FLAG_UP | FLAG_UV]),
      counterBytes(spoil.counter ?? credential.counter),
    ]);
    const data = clientData('webauthn.get', spoil.challenge ?? options.challenge, spoil.origin ?? this.settings.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), credential.privateKey);
    if (spoil.forgeSignature)
      signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0x01, signature.length - 1);
    return credentialJson(credential, {
      clientDataJSON: b64url(data),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: spoil.userHandle ?? credential.userHandle,
    });
  }

  /** The only credential it holds (most tests register one). */
  only(): StoredCredential {
    const [credential, ...more] = this.credentials.values();
    if (!credential || more.length) throw new Error(`expected one credential, found ${this.credentials.size}`);
    return credential;
  }

  private newCredential(rpId: string, userHandle: string): StoredCredential {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { id: b64url(randomBytes(16)), privateKey, publicKey, rpId, userHandle, counter: 0 };
  }
}
