/**
 * The CardSigner port on AWS KMS: an `ECC_NIST_P256` `SIGN_VERIFY` key. `Sign` is sent the SHA-256
 * digest (`MessageType: DIGEST`), so a card of any size is one call (KMS takes at most 4,096 bytes
 * of a raw message), and its DER signature is converted to JOSE's r || s. The public key comes
 * from `GetPublicKey`, once per instance (a cold start).
 */
import { createHash, createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { exportJWK } from 'jose';
import { config } from '../../config.js';
import { derToJoseSignature } from '../../domain/ecdsa-signature.js';
import { cardSigningJwk, type CardSigner, type CardSigningJwk } from '../card-signer.js';

export interface KmsCardSignerOptions {
  /** The KMS key's id (not an alias): also the JWS `kid`. */
  keyId: string;
  client?: KMSClient;
}

export class KmsCardSigner implements CardSigner {
  private readonly client: KMSClient;
  private publicKey: Promise<CardSigningJwk> | undefined;

  constructor(private readonly options: KmsCardSignerOptions) {
    this.client = options.client ?? new KMSClient({});
  }

  keyId(): Promise<string> {
    return Promise.resolve(this.options.keyId);
  }

  publicJwk(): Promise<CardSigningJwk> {
    // A failed read is not kept: the next request asks KMS again.
    this.publicKey ??= this.readPublicKey().catch((error: unknown) => {
      this.publicKey = undefined;
      throw error;
    });
    return this.publicKey;
  }

  async sign(data: Uint8Array): Promise<Uint8Array> {
    const { Signature } = await this.client.send(
      new SignCommand({
        KeyId: this.options.keyId,
        Message: createHash('sha256').update(data).digest(),
        MessageType: 'DIGEST',
        SigningAlgorithm: 'ECDSA_SHA_256',
      }),
    );
    if (!Signature) throw new Error('KMS Sign answered no signature');
    return derToJoseSignature(Signature);
  }

  private async readPublicKey(): Promise<CardSigningJwk> {
    const { PublicKey } = await this.client.send(new GetPublicKeyCommand({ KeyId: this.options.keyId }));
    if (!PublicKey) throw new Error('KMS GetPublicKey answered no key');
    const jwk = await exportJWK(createPublicKey({ key: Buffer.from(PublicKey), format: 'der', type: 'spki' }));
    return cardSigningJwk(jwk, this.options.keyId);
  }
}

/** A handler builds its ports once per instance, so the public key is read once per cold start. */
export const kmsCardSignerFromConfig = (): CardSigner => new KmsCardSigner({ keyId: config.agentCardKeyId });
