/** The local card signer: a key file under DATA_DIR made on first use (0600), reused after a restart; in memory without one. */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, flattenedVerify } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_CARD_KEY_FILE, LocalCardSigner } from '../../infra/local/local-card-signer.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'card-signer-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A compact JWS by `signer` over `payload`, verified against its own JWKS. */
async function signsVerifiably(signer: LocalCardSigner, payload: string) {
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: await signer.keyId() })).toString('base64url');
  const body = Buffer.from(payload).toString('base64url');
  const signature = Buffer.from(await signer.sign(Buffer.from(`${header}.${body}`))).toString('base64url');
  const jwks = createLocalJWKSet({ keys: [await signer.publicJwk()] });
  return (await flattenedVerify({ protected: header, payload: body, signature }, jwks)).protectedHeader;
}

describe('LocalCardSigner', () => {
  it('creates the key file on first use, readable by its owner only, and reuses it after a restart', async () => {
    const first = new LocalCardSigner(dataDir);
    const path = join(dataDir, LOCAL_CARD_KEY_FILE);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
    const kid = await first.keyId();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await signsVerifiably(first, 'hello')).toEqual({ alg: 'ES256', kid });

    // A new process (a restart) finds the same key: what was signed before still verifies.
    const restarted = new LocalCardSigner(dataDir);
    expect(await restarted.keyId()).toBe(kid);
    expect(await restarted.publicJwk()).toEqual(await first.publicJwk());
    expect(await signsVerifiably(restarted, 'hello again')).toEqual({ alg: 'ES256', kid });
  });

  it('of two first uses at once, both end up with the one key written', async () => {
    const [a, b] = [new LocalCardSigner(dataDir), new LocalCardSigner(dataDir)];
    const [kidA, kidB] = await Promise.all([a.keyId(), b.keyId()]);
    expect(kidA).toBe(kidB);
  });

  it('without a directory keeps a key in memory: a new one per instance, nothing written', async () => {
    const [a, b] = [new LocalCardSigner(undefined), new LocalCardSigner(undefined)];
    expect(await a.keyId()).not.toBe(await b.keyId());
    expect(await signsVerifiably(a, 'in memory')).toEqual({ alg: 'ES256', kid: await a.keyId() });
    expect(a.path).toBeUndefined();
  });
});
