/**
 * The sign-in's assertion check (shared/passkeys/sign-in.ts) and the registration's COSE → SPKI
 * conversion (public-key.ts) for each algorithm a passkey may use: the e2e tests sign with ES256
 * only (as the software authenticator and Chromium's virtual one do).
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PASSKEY_ALGORITHMS } from '../../shared/passkeys/algorithms.js';
import { spkiOf } from '../../shared/passkeys/public-key.js';
import { verifySignIn } from '../../shared/passkeys/sign-in.js';
import { encodeCbor } from '../support/cbor.js';

const ORIGIN = 'http://localhost:4173';
process.env.WEBAUTHN_ORIGINS = ORIGIN;
process.env.WEBAUTHN_RP_ID = 'localhost';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer) => data.toString('base64url');
const USER = 'user-1';

const keysOf = {
  ES256: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  EdDSA: () => generateKeyPairSync('ed25519'),
  RS256: () => generateKeyPairSync('rsa', { modulusLength: 2048 }),
};

/** The COSE key of a public key, as an authenticator writes it into attested credential data. */
function coseOf(algorithm: keyof typeof keysOf, publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const bytes = (value: string | undefined) => Buffer.from(value!, 'base64url');
  const entries: [number, number | Uint8Array][] =
    algorithm === 'ES256'
      ? [
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, bytes(jwk.x)],
          [-3, bytes(jwk.y)],
        ]
      : algorithm === 'EdDSA'
        ? [
            [1, 1],
            [3, -8],
            [-1, 6],
            [-2, bytes(jwk.x)],
          ]
        : [
            [1, 3],
            [3, -257],
            [-1, bytes(jwk.n)],
            [-2, bytes(jwk.e)],
          ];
  return encodeCbor(new Map(entries));
}

function assertion(
  algorithm: keyof typeof keysOf,
  privateKey: KeyObject,
  options: { flags?: number; counter?: number } = {},
) {
  const authData = Buffer.alloc(37);
  sha256('localhost').copy(authData);
  authData[32] = options.flags ?? 0x05;
  authData.writeUInt32BE(options.counter ?? 0, 33);
  const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: 'c', origin: ORIGIN }));
  const signed = Buffer.concat([authData, sha256(clientData)]);
  const signature = sign(algorithm === 'EdDSA' ? null : 'sha256', signed, privateKey);
  return {
    id: 'cred',
    response: {
      clientDataJSON: b64(clientData),
      authenticatorData: b64(authData),
      signature: b64(signature),
      userHandle: b64(Buffer.from(USER)),
    },
  };
}

describe.each(Object.keys(keysOf) as (keyof typeof keysOf)[])('a %s passkey', (algorithm) => {
  const { privateKey, publicKey } = keysOf[algorithm]();
  const stored = spkiOf(new Uint8Array(coseOf(algorithm, publicKey)));
  const passkey = { ...stored!, counter: 0, user_id: USER };

  it('is stored as its SPKI and COSE algorithm', () => {
    expect(stored).toEqual({
      public_key: b64(publicKey.export({ type: 'spki', format: 'der' })),
      algorithm: PASSKEY_ALGORITHMS[algorithm],
    });
  });

  it('signs in with a good signature, and not with another key’s or without user verification', () => {
    expect(verifySignIn(assertion(algorithm, privateKey, { counter: 3 }), 'c', passkey)).toEqual({ counter: 3 });
    const other = keysOf[algorithm]().privateKey;
    expect(verifySignIn(assertion(algorithm, other), 'c', passkey)).toEqual({ refused: 'signature' });
    expect(verifySignIn(assertion(algorithm, privateKey, { flags: 0x01 }), 'c', passkey)).toEqual({
      refused: 'signature',
    });
    expect(verifySignIn(assertion(algorithm, privateKey, { counter: 2 }), 'c', { ...passkey, counter: 2 })).toEqual({
      refused: 'counter',
    });
  });
});
