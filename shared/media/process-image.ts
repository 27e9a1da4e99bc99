/**
 * Turns an upload into the four files of its purpose (API.md "Media"; sizes from MEDIA_VARIANTS).
 * Pure: bytes in, files out, nothing stored, nothing written to disk. Bad input is a result
 * (`ok: false` with the media's `error_code`), never a throw; a throw is a bug.
 *
 * Output encoding, one rule: JPEG (mozjpeg) when every pixel is opaque, WebP (lossy colour,
 * lossless alpha) when any pixel is transparent.
 * - JPEG because every client decodes it, e-mail clients and old apps included. mozjpeg
 *   (trellis quantisation, progressive scans) costs about 2-3 times libjpeg-turbo's encode time
 *   and gives markedly smaller files for the same quality setting: paid once per upload, saved
 *   on every view.
 * - WebP for transparency because JPEG has none and a PNG of a photo-sized image with an alpha
 *   channel runs to megabytes; every current browser decodes WebP. An alpha channel in which
 *   every pixel is opaque (GIF decodes always carry one) counts as opaque.
 * - Animated GIF and WebP: the first frame. The variants are stills (JPEG has no animation), and
 *   decoding every frame would multiply the time and memory by the number of frames.
 *
 * Speed: the upload is decoded once (a JPEG shrinks on load), turned upright by its EXIF
 * orientation and reduced to the largest size any variant needs, into an uncompressed TIFF held
 * in memory (an intermediate that keeps the ICC profile, which raw pixels would lose); the four
 * variants are resized and encoded from it in parallel. Only that first pass (and the header
 * read before it) parses the upload's bytes, so only its failures are the upload's fault.
 */
import sharp, { type Metadata, type Sharp } from 'sharp';
import {
  MEDIA_CONTENT_TYPES,
  MEDIA_MAX_INPUT_PIXELS,
  MEDIA_VARIANT_NAMES,
  MEDIA_VARIANTS,
  type MediaContentType,
  type MediaFailureCode,
  type MediaPurpose,
  type MediaVariantName,
  type VariantSize,
} from '../domain/media.js';
import { sniffImageType, type SniffedImageType } from './sniff-image-type.js';

export interface ProcessedFile {
  name: MediaVariantName;
  contentType: string;
  extension: string;
  body: Buffer;
  width: number;
  height: number;
}

export type ProcessImageResult =
  | { ok: true; files: ProcessedFile[]; width: number; height: number /* the large file's */ }
  | { ok: false; errorCode: MediaFailureCode; errorMessage: string };

type Failure = Extract<ProcessImageResult, { ok: false }>;

/**
 * Decoding stops at the first libvips error, truncation included, but not at warnings (stray
 * bytes between JPEG markers are common in camera files and harmless).
 */
const FAIL_ON = 'error';
/** A decode still running after this long is a hostile file; the processor's Lambda has 30 s. */
const DECODE_TIMEOUT_SECONDS = 20;

const JPEG_QUALITY = 80;
const WEBP_QUALITY = 80;

interface Encoding {
  contentType: string;
  extension: string;
  encode: (image: Sharp) => Sharp;
}

const OPAQUE: Encoding = {
  contentType: 'image/jpeg',
  extension: 'jpg',
  encode: (image) => image.removeAlpha().jpeg({ quality: JPEG_QUALITY, mozjpeg: true }),
};
const TRANSPARENT: Encoding = {
  contentType: 'image/webp',
  extension: 'webp',
  encode: (image) => image.webp({ quality: WEBP_QUALITY, alphaQuality: 100 }),
};

const TYPE_NAMES: Record<SniffedImageType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/avif': 'AVIF',
  'image/heic': 'HEIC/HEIF',
};
const ACCEPTED_NAMES = MEDIA_CONTENT_TYPES.map((type) => TYPE_NAMES[type]).join(', ');

const unsupported = (errorMessage: string): Failure => ({
  ok: false,
  errorCode: 'unsupported_media_type',
  errorMessage,
});

const megapixels = (pixels: number) => `${(pixels / 1_000_000).toFixed(1)} megapixels`;

const tooLarge = (width: number, height: number): Failure => ({
  ok: false,
  errorCode: 'image_too_large',
  errorMessage: `The image is ${width} × ${height} pixels (${megapixels(width * height)}); at most ${megapixels(MEDIA_MAX_INPUT_PIXELS)} are accepted.`,
});

export async function processImage(
  input: Buffer,
  purpose: MediaPurpose,
  declaredType: MediaContentType,
): Promise<ProcessImageResult> {
  const sniffed = sniffImageType(input);
  if (sniffed === undefined) return unsupported(`The file is not an image of an accepted type (${ACCEPTED_NAMES}).`);
  if (sniffed === 'image/heic') return unsupported(`HEIC/HEIF images are not accepted; send ${ACCEPTED_NAMES}.`);
  if (sniffed !== declaredType) {
    return unsupported(`The file is a ${TYPE_NAMES[sniffed]} image, but was declared as ${declaredType}.`);
  }

  const header = await readHeader(input);
  if (header === undefined || decodedType(header) !== sniffed) {
    return unsupported(`The file could not be decoded as a ${TYPE_NAMES[sniffed]} image.`);
  }
  // Only the first frame of an animation is decoded (see above).
  const frameHeight = header.pageHeight ?? header.height;
  if (header.width * frameHeight > MEDIA_MAX_INPUT_PIXELS) return tooLarge(header.width, frameHeight);

  const sizes = MEDIA_VARIANT_NAMES.map((name) => MEDIA_VARIANTS[purpose][name]);
  const decoded = await decodeUpright(
    input,
    intermediateLongestSide(sizes, header.autoOrient.width, header.autoOrient.height),
  );
  if (!decoded.ok) {
    return decoded.tooLarge
      ? tooLarge(header.width, frameHeight)
      : unsupported(`The file could not be decoded as a ${TYPE_NAMES[sniffed]} image.`);
  }

  const encoding = (await isOpaque(decoded.image, decoded.channels)) ? OPAQUE : TRANSPARENT;
  const files = await Promise.all(
    MEDIA_VARIANT_NAMES.map((name) => render(decoded.image, name, MEDIA_VARIANTS[purpose][name], encoding)),
  );
  const large = files.find((file) => file.name === 'large')!;
  return { ok: true, files, width: large.width, height: large.height };
}

/** The header alone (dimensions, format, orientation): no pixel data is decoded. */
async function readHeader(input: Buffer): Promise<Metadata | undefined> {
  try {
    return await sharp(input, { failOn: FAIL_ON }).metadata();
  } catch {
    return undefined;
  }
}

/** What libvips' decoder makes of the file; AVIF is HEIF with AV1 compression (HEVC is HEIC). */
function decodedType(header: Metadata): MediaContentType | undefined {
  switch (header.format) {
    case 'jpeg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
    case 'webp':
      return 'image/webp';
    case 'gif':
      return 'image/gif';
    case 'heif':
      return header.compression === 'av1' ? 'image/avif' : undefined;
    default:
      return undefined;
  }
}

/**
 * The longest side the intermediate needs so that no variant is enlarged from it where the
 * upload had the pixels: the largest `inside` bound, or more for a `cover` crop of an image far
 * wider or taller than the crop (a panorama as a banner). Never more than the upload's own.
 */
function intermediateLongestSide(sizes: VariantSize[], width: number, height: number): number {
  const longest = Math.max(width, height);
  const needed = sizes.map((size) =>
    size.fit === 'inside' ? size.longest : Math.ceil(Math.max(size.width / width, size.height / height) * longest),
  );
  return Math.min(longest, Math.max(...needed));
}

type Decoded = { ok: true; image: Buffer; channels: number } | { ok: false; tooLarge: boolean };

/** The one pass over the upload: decode, orient upright, reduce; every metadata block but the ICC profile dropped. */
async function decodeUpright(input: Buffer, longestSide: number): Promise<Decoded> {
  const pipeline = sharp(input, { limitInputPixels: MEDIA_MAX_INPUT_PIXELS, failOn: FAIL_ON })
    .autoOrient()
    .resize(longestSide, longestSide, { fit: 'inside', withoutEnlargement: true })
    .keepIccProfile()
    .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
    .tiff({ compression: 'none' });
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { ok: true, image: data, channels: info.channels };
  } catch (error) {
    // The header passed the pixel check; libvips' own limit is the second guard.
    return { ok: false, tooLarge: error instanceof Error && error.message.includes('pixel limit') };
  }
}

async function isOpaque(image: Buffer, channels: number): Promise<boolean> {
  const hasAlpha = channels === 2 || channels === 4;
  return !hasAlpha || (await sharp(image).stats()).isOpaque;
}

async function render(
  image: Buffer,
  name: MediaVariantName,
  size: VariantSize,
  encoding: Encoding,
): Promise<ProcessedFile> {
  const resized =
    size.fit === 'cover'
      ? sharp(image).resize(size.width, size.height, { fit: 'cover' })
      : sharp(image).resize(size.longest, size.longest, { fit: 'inside', withoutEnlargement: true });
  const { data, info } = await encoding.encode(resized.keepIccProfile()).toBuffer({ resolveWithObject: true });
  return {
    name,
    contentType: encoding.contentType,
    extension: encoding.extension,
    body: data,
    width: info.width,
    height: info.height,
  };
}
