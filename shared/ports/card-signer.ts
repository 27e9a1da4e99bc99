/**
 * CardSigner port: the service's ES256 key that signs agent cards (API.md "Accountable agents").
 * An AWS KMS asymmetric key in AWS (aws/kms-card-signer.ts), whose private half never leaves KMS;
 * a key file under DATA_DIR on this machine (infra/local/local-card-signer.ts).
 */
import type { JWK } from 'jose';

/** A public key as `/.well-known/jwks.json` lists it. */
export interface CardSigningJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/** The JWK an adapter exported from its public key, as the JWKS lists it under `kid`; anything but P-256 is a misconfigured key. */
export function cardSigningJwk(jwk: JWK, kid: string): CardSigningJwk {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y)
    throw new Error(`The agent card key must be an EC P-256 key, found ${jwk.kty ?? '?'} ${jwk.crv ?? ''}`);
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid, alg: 'ES256', use: 'sig' };
}

export interface CardSigner {
  /** The key's id: the JWS `kid`, known without asking the key store (a read whose signature is cached signs nothing). */
  keyId(): Promise<string>;
  /** The public key, read once per instance. */
  publicJwk(): Promise<CardSigningJwk>;
  /** An ES256 signature of `data` (SHA-256, P-256) in JOSE's form: r || s, 64 bytes. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}
