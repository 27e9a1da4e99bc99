/**
 * The image type a file's first bytes announce (its magic numbers), read before any decoder sees
 * the file: only the decoders of the accepted types ever parse an upload (libvips would also
 * open SVG, TIFF and more).
 */
import type { MediaContentType } from '../domain/media.js';

/** HEIC (and any other non-AVIF HEIF) is recognised only to be refused by name. */
export type SniffedImageType = MediaContentType | 'image/heic';

const startsWith = (bytes: Uint8Array, offset: number, ascii: string) =>
  bytes.length >= offset + ascii.length && [...ascii].every((c, i) => bytes[offset + i] === c.charCodeAt(0));

const AVIF_BRANDS = new Set(['avif', 'avis']);
/** HEVC-coded HEIF brands, and the generic HEIF ones a file without an AVIF brand is left with. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1']);

/** The brands of an ISO base media file's leading `ftyp` box (major brand and compatible brands). */
function isoBrands(bytes: Uint8Array): string[] | undefined {
  if (!startsWith(bytes, 4, 'ftyp') || bytes.length < 16) return undefined;
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(boxSize, bytes.length);
  const brand = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  const brands = [brand(8)];
  // Bytes 12-15 are the minor version; the compatible brands follow to the end of the box.
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(brand(offset));
  return brands;
}

export function sniffImageType(bytes: Uint8Array): SniffedImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (startsWith(bytes, 0, '\x89PNG\r\n\x1a\n')) return 'image/png';
  if (startsWith(bytes, 0, 'GIF87a') || startsWith(bytes, 0, 'GIF89a')) return 'image/gif';
  if (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) return 'image/webp';
  const brands = isoBrands(bytes);
  if (brands?.some((b) => AVIF_BRANDS.has(b))) return 'image/avif';
  if (brands?.some((b) => HEIC_BRANDS.has(b))) return 'image/heic';
  return undefined;
}
