/**
 * The CardSigner port on this machine: a P-256 key in a PKCS#8 file under DATA_DIR, made on first
 * use (mode 0600, only its owner reads it) and reused across restarts, so cards signed before a
 * restart still verify; with `--in-memory` (no directory) a key kept in memory only. The `kid`
 * is the key's RFC 7638 thumbprint.
 */
import { generateKeyPairSync, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { cardSigningJwk, type CardSigner, type CardSigningJwk } from '../../shared/ports/card-signer.js';

export const LOCAL_CARD_KEY_FILE = 'agent-card-signing-key.pem';

interface LoadedKey {
  privateKey: KeyObject;
  jwk: CardSigningJwk;
}

const newKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

const isAlreadyThere = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EEXIST';

/** The key file's key; the first caller to find none writes one (`wx`: of two racing writers one wins, both read it). */
async function loadOrCreate(path: string): Promise<KeyObject> {
  await mkdir(dirname(path), { recursive: true });
  const fresh = newKey();
  try {
    await writeFile(path, fresh.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    return fresh;
  } catch (error) {
    if (!isAlreadyThere(error)) throw error;
    return createPrivateKey(await readFile(path));
  }
}

async function load(path: string | undefined): Promise<LoadedKey> {
  const privateKey = path ? await loadOrCreate(path) : newKey();
  const jwk = await exportJWK(createPublicKey(privateKey));
  return { privateKey, jwk: cardSigningJwk(jwk, await calculateJwkThumbprint(jwk)) };
}

export class LocalCardSigner implements CardSigner {
  private key: Promise<LoadedKey> | undefined;

  /** `dataDir`: where the key file is kept; without one, the key lives as long as this object. */
  constructor(private readonly dataDir: string | undefined) {}

  /** Where the key is kept, if anywhere. */
  get path(): string | undefined {
    return this.dataDir === undefined ? undefined : join(this.dataDir, LOCAL_CARD_KEY_FILE);
  }

  private loaded(): Promise<LoadedKey> {
    return (this.key ??= load(this.path));
  }

  async keyId(): Promise<string> {
    return (await this.loaded()).jwk.kid;
  }

  async publicJwk(): Promise<CardSigningJwk> {
    return (await this.loaded()).jwk;
  }

  async sign(data: Uint8Array): Promise<Uint8Array> {
    return sign('sha256', data, { key: (await this.loaded()).privateKey, dsaEncoding: 'ieee-p1363' });
  }
}
