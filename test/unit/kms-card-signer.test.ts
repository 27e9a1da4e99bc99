/**
 * The KMS card signer on the exact commands it sends (aws-sdk-client-mock), answered with what KMS
 * itself would answer for a real P-256 key: its SPKI DER public key, and DER signatures of the
 * message whose digest was sent. The JWS the service builds from them must verify with jose.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { createLocalJWKSet, exportJWK, flattenedVerify } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentCardOf, canonicalJson, protectedHeaderOf, signingInputOf } from '../../shared/domain/agent-cards.js';
import { KmsCardSigner } from '../../shared/ports/aws/kms-card-signer.js';

const KEY_ID = '1234abcd-12ab-34cd-56ef-1234567890ab';
const kms = mockClient(KMSClient);
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const spki = publicKey.export({ format: 'der', type: 'spki' });

/** What KMS would sign: the test's own messages, found by the digest the adapter sends. */
const messages = new Map<string, Buffer>();
const signedByKms = (message: Buffer) => {
  messages.set(createHash('sha256').update(message).digest('hex'), message);
  return message;
};

beforeEach(() => {
  kms.reset();
  messages.clear();
  kms.on(GetPublicKeyCommand).resolves({ KeyId: KEY_ID, PublicKey: new Uint8Array(spki), KeySpec: 'ECC_NIST_P256' });
  kms.on(SignCommand).callsFake((input: { Message: Uint8Array }) => {
    const message = messages.get(Buffer.from(input.Message).toString('hex'));
    if (!message) throw new Error('signed a digest of no known message');
    return {
      KeyId: KEY_ID,
      Signature: new Uint8Array(sign('sha256', message, privateKey)),
      SigningAlgorithm: 'ECDSA_SHA_256',
    };
  });
});

const signer = () => new KmsCardSigner({ keyId: KEY_ID, client: new KMSClient({}) });

describe('KmsCardSigner', () => {
  it('sends Sign with the SHA-256 digest (MessageType DIGEST, ECDSA_SHA_256) and answers r || s', async () => {
    const data = signedByKms(Buffer.from('a'.repeat(10_000)));
    const raw = await signer().sign(data);
    expect(raw).toHaveLength(64);
    const calls = kms.commandCalls(SignCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      KeyId: KEY_ID,
      Message: createHash('sha256').update(data).digest(),
      MessageType: 'DIGEST',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
  });

  it('reads the public key once (GetPublicKey) and lists it as an ES256 JWK named by the key id', async () => {
    const adapter = signer();
    const [first, second] = await Promise.all([adapter.publicJwk(), adapter.publicJwk()]);
    expect(await adapter.publicJwk()).toBe(first);
    expect(second).toBe(first);
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(1);
    expect(kms.commandCalls(GetPublicKeyCommand)[0]!.args[0].input).toEqual({ KeyId: KEY_ID });
    const { x, y } = await exportJWK(publicKey);
    expect(first).toEqual({ kty: 'EC', crv: 'P-256', x, y, kid: KEY_ID, alg: 'ES256', use: 'sig' });
    expect(await adapter.keyId()).toBe(KEY_ID);
  });

  it('does not keep a failed public key read', async () => {
    kms.reset();
    kms
      .on(GetPublicKeyCommand)
      .rejectsOnce(new Error('ThrottlingException'))
      .resolves({ KeyId: KEY_ID, PublicKey: new Uint8Array(spki) });
    const adapter = signer();
    await expect(adapter.publicJwk()).rejects.toThrow('ThrottlingException');
    expect((await adapter.publicJwk()).kid).toBe(KEY_ID);
    expect(kms.commandCalls(GetPublicKeyCommand)).toHaveLength(2);
  });

  it('signs a card whose detached JWS verifies with jose against the JWKS it serves', async () => {
    const adapter = signer();
    const card = agentCardOf({
      profile: { id: 'p1', name: 'Botty', call_name: 'Botty', bio: null },
      declaration: { skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }], homepage_url: null },
      operator: { id: 'o1', name: 'Acme' },
      baseUrl: 'https://api.example.com',
      mcpUrl: 'https://api.example.com/mcp',
    });
    const header = protectedHeaderOf(await adapter.keyId());
    const signature = Buffer.from(await adapter.sign(signedByKms(signingInputOf(header, card)))).toString('base64url');
    const jwks = createLocalJWKSet({ keys: [await adapter.publicJwk()] });
    const payload = Buffer.from(canonicalJson(card)).toString('base64url');
    const verified = await flattenedVerify({ protected: header, payload, signature }, jwks);
    expect(verified.protectedHeader).toEqual({ alg: 'ES256', kid: KEY_ID });
    await expect(
      flattenedVerify({ protected: header, payload: Buffer.from('{}').toString('base64url'), signature }, jwks),
    ).rejects.toThrow(/signature verification failed/);
  });

  it('lets an error of KMS through', async () => {
    kms.on(SignCommand).rejects(new Error('AccessDeniedException'));
    await expect(signer().sign(Buffer.from('x'))).rejects.toThrow('AccessDeniedException');
  });
});
