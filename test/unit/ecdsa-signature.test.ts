/** DER → JOSE conversion of ECDSA signatures (what the KMS card signer does with every signature KMS answers). */
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derToJoseSignature } from '../../shared/domain/ecdsa-signature.js';

/** A DER INTEGER of big-endian `bytes` as DER writes one: minimal, a 0x00 before a set high bit. */
function derInteger(bytes: Uint8Array): number[] {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const body = [...bytes.subarray(start)];
  if (body[0]! & 0x80) body.unshift(0);
  return [0x02, body.length, ...body];
}

const derOf = (r: Uint8Array, s: Uint8Array) => {
  const body = [...derInteger(r), ...derInteger(s)];
  return Uint8Array.from([0x30, body.length, ...body]);
};

const filled = (length: number, byte: number) => new Uint8Array(length).fill(byte);

describe('derToJoseSignature', () => {
  it('pads short integers, drops the sign byte of high ones, and writes r || s at 32 bytes each', () => {
    const r = Uint8Array.from([...filled(2, 0), ...filled(30, 0x11)]); // DER: 30 bytes
    const s = filled(32, 0xff); // DER: 33 bytes, a leading 0x00
    const raw = derToJoseSignature(derOf(r, s));
    expect(raw).toHaveLength(64);
    expect(Buffer.from(raw.subarray(0, 32))).toEqual(Buffer.from(r));
    expect(Buffer.from(raw.subarray(32))).toEqual(Buffer.from(s));
  });

  it("turns a real P-256 key's DER signatures into ones ES256 verifies (many, so every length occurs)", () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const lengths = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const data = Buffer.from(`message ${i}`);
      const der = sign('sha256', data, privateKey);
      lengths.add(der.length);
      const raw = derToJoseSignature(der);
      expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true);
    }
    // Short and sign-padded integers both came up: 70, 71 and 72 bytes of DER are the usual spread.
    expect(lengths.size).toBeGreaterThan(1);
  });

  it('refuses what is not a DER SEQUENCE of two INTEGERs that fit the curve', () => {
    const good = derOf(filled(32, 1), filled(32, 2));
    expect(() => derToJoseSignature(Uint8Array.from([0x31, ...good.subarray(1)]))).toThrow(/SEQUENCE/);
    expect(() => derToJoseSignature(good.subarray(0, good.length - 1))).toThrow(/Malformed/);
    expect(() => derToJoseSignature(Uint8Array.from([...good, 0]))).toThrow(/Malformed/);
    expect(() => derToJoseSignature(derOf(filled(33, 1), filled(32, 2)))).toThrow(/wider than the curve/);
    const notInteger = Uint8Array.from(good);
    notInteger[2] = 0x04;
    expect(() => derToJoseSignature(notInteger)).toThrow(/INTEGER/);
  });
});
