/**
 * ECDSA signatures in the two encodings that meet here: AWS KMS answers `Sign` with an ASN.1 DER
 * `SEQUENCE { INTEGER r, INTEGER s }` (RFC 3279), while JWS (RFC 7518 §3.4) wants the fixed-width
 * big-endian `r || s`. Pure byte work, so it is tested apart from any key.
 */

/** The width of r and s for ES256 (P-256): 32 bytes each. */
export const P256_COORDINATE_BYTES = 32;

const malformed = (why: string) => new Error(`Malformed DER ECDSA signature: ${why}`);

/** Reads one DER length at `at`: its value and where the content starts. */
function readLength(der: Uint8Array, at: number): { length: number; start: number } {
  const first = der[at];
  if (first === undefined) throw malformed('truncated length');
  if (first < 0x80) return { length: first, start: at + 1 };
  const octets = first & 0x7f;
  if (octets === 0 || octets > 2) throw malformed('unsupported length form');
  let length = 0;
  for (let i = 1; i <= octets; i++) {
    const byte = der[at + i];
    if (byte === undefined) throw malformed('truncated length');
    length = (length << 8) | byte;
  }
  return { length, start: at + 1 + octets };
}

/** One INTEGER at `at`, as `width` big-endian bytes (its sign-padding zero dropped, short values left-padded). */
function readInteger(der: Uint8Array, at: number, width: number): { value: Uint8Array; end: number } {
  if (der[at] !== 0x02) throw malformed('expected an INTEGER');
  const { length, start } = readLength(der, at + 1);
  const end = start + length;
  if (length === 0 || end > der.length) throw malformed('bad INTEGER length');
  let bytes = der.subarray(start, end);
  while (bytes.length > width && bytes[0] === 0) bytes = bytes.subarray(1);
  if (bytes.length > width) throw malformed('INTEGER wider than the curve');
  const value = new Uint8Array(width);
  value.set(bytes, width - bytes.length);
  return { value, end };
}

/** DER `SEQUENCE { r, s }` → JOSE `r || s`, each `width` bytes. */
export function derToJoseSignature(der: Uint8Array, width = P256_COORDINATE_BYTES): Uint8Array {
  if (der[0] !== 0x30) throw malformed('expected a SEQUENCE');
  const { length, start } = readLength(der, 1);
  if (start + length !== der.length) throw malformed('SEQUENCE length does not match');
  const r = readInteger(der, start, width);
  const s = readInteger(der, r.end, width);
  if (s.end !== der.length) throw malformed('trailing bytes');
  const raw = new Uint8Array(width * 2);
  raw.set(r.value, 0);
  raw.set(s.value, width);
  return raw;
}
