/**
 * A credential's COSE public key (RFC 9053) as a SubjectPublicKeyInfo, the form node:crypto reads
 * at each sign-in without a CBOR decoder or the WebAuthn library.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';
import { PASSKEY_ALGORITHMS } from './algorithms.js';

const KTY = 1;
const ALG = 3;
const CRV_OR_N = -1;
const X_OR_E = -2;
const Y = -3;

const b64url = (value: unknown) => Buffer.from(value as Uint8Array).toString('base64url');

/** The JWK of a COSE key of one of PASSKEY_ALGORITHMS; undefined for anything else. */
function jwkOf(cose: Map<number, unknown>): JsonWebKey | undefined {
  const kty = cose.get(KTY);
  const alg = cose.get(ALG);
  if (alg === PASSKEY_ALGORITHMS.ES256 && kty === 2 && cose.get(CRV_OR_N) === 1)
    return { kty: 'EC', crv: 'P-256', x: b64url(cose.get(X_OR_E)), y: b64url(cose.get(Y)) };
  if (alg === PASSKEY_ALGORITHMS.EdDSA && kty === 1 && cose.get(CRV_OR_N) === 6)
    return { kty: 'OKP', crv: 'Ed25519', x: b64url(cose.get(X_OR_E)) };
  if (alg === PASSKEY_ALGORITHMS.RS256 && kty === 3)
    return { kty: 'RSA', n: b64url(cose.get(CRV_OR_N)), e: b64url(cose.get(X_OR_E)) };
  return undefined;
}

/** The key's SPKI DER (base64url) and its COSE algorithm, or undefined when it is not one a sign-in can check. */
export function spkiOf(
  coseKey: Parameters<typeof decodeCredentialPublicKey>[0],
): { public_key: string; algorithm: number } | undefined {
  const cose = decodeCredentialPublicKey(coseKey) as unknown as Map<number, unknown>;
  const jwk = jwkOf(cose);
  if (!jwk) return undefined;
  const spki = createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'der' });
  return { public_key: spki.toString('base64url'), algorithm: cose.get(ALG) as number };
}
