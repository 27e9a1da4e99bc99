import zlib from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { MEDIA_VARIANT_NAMES, type MediaContentType, type MediaPurpose } from '../../shared/domain/media.js';
import { processImage, type ProcessedFile, type ProcessImageResult } from '../../shared/media/process-image.js';
import { sniffImageType } from '../../shared/media/sniff-image-type.js';

type Rgb = [number, number, number];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const YELLOW: Rgb = [255, 255, 0];
const colour = ([r, g, b]: Rgb) => ({ r, g, b });

/** Four solid quadrants: red top left, green top right, blue bottom left, yellow bottom right. */
function quadrants(width: number, height: number): Sharp {
  const w = Math.floor(width / 2);
  const h = Math.floor(height / 2);
  const block = (c: Rgb, bw: number, bh: number) => ({
    create: { width: bw, height: bh, channels: 3 as const, background: colour(c) },
  });
  return sharp({ create: { width, height, channels: 3, background: colour(RED) } }).composite([
    { input: block(GREEN, width - w, h), left: w, top: 0 },
    { input: block(BLUE, w, height - h), left: 0, top: h },
    { input: block(YELLOW, width - w, height - h), left: w, top: h },
  ]);
}

async function pixelAt(image: Buffer, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

/** Colours of the four quadrants, sampled at their centres. */
async function quadrantColours(file: ProcessedFile): Promise<Rgb[]> {
  const [x1, x2, y1, y2] = [file.width / 4, (3 * file.width) / 4, file.height / 4, (3 * file.height) / 4].map(
    Math.floor,
  );
  return Promise.all([
    pixelAt(file.body, x1!, y1!),
    pixelAt(file.body, x2!, y1!),
    pixelAt(file.body, x1!, y2!),
    pixelAt(file.body, x2!, y2!),
  ]);
}

/** Lossy encodings shift colours a little; a wrong quadrant is off by 255 in some channel. */
function expectColours(actual: Rgb[], expected: Rgb[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((pixel, i) =>
    pixel.forEach((value, c) => expect(Math.abs(value - expected[i]![c]!)).toBeLessThan(40)),
  );
}

function ready(result: ProcessImageResult) {
  if (!result.ok) throw new Error(`expected ready, got ${result.errorCode}: ${result.errorMessage}`);
  return result;
}

const file = (result: ProcessImageResult, name: ProcessedFile['name']) =>
  ready(result).files.find((f) => f.name === name)!;

/** The file as its decoder sees it (its real size, format and metadata), beside what processImage reported. */
async function decodedSizes(result: ProcessImageResult) {
  return Promise.all(
    ready(result).files.map(async (f) => {
      const meta = await sharp(f.body).metadata();
      expect(meta.mediaType).toBe(f.contentType);
      expect([meta.width, meta.height]).toEqual([f.width, f.height]);
      return [f.name, `${f.width}x${f.height}`];
    }),
  ).then(Object.fromEntries);
}

/**
 * A 16000 × 16000 PNG of one-bit black pixels: about 30 KB on disk, 256 megapixels decoded. Built
 * with zlib because encoding it with sharp takes seconds (the test only needs valid PNG bytes).
 */
function blackPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, not interlaced
  // Each row: filter byte 0 and the bits of its pixels, all zero.
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG comment (COM) segment right after the start-of-image marker: sharp writes none itself. */
function withJpegComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const segment = Buffer.alloc(4);
  segment.set([0xff, 0xfe], 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

describe('processImage: the variant table', () => {
  const expected: Record<MediaPurpose, Record<string, string>> = {
    avatar: { source: '2048x1365', large: '800x800', medium: '400x400', small: '128x128' },
    banner: { source: '3000x2000', large: '1500x500', medium: '1000x333', small: '600x200' },
    post_image: { source: '4096x2731', large: '2048x1365', medium: '1200x800', small: '680x453' },
  };

  it.each(Object.keys(expected) as MediaPurpose[])(
    'gives a %s exactly its four sizes, reports the large one, and crops covers around the centre',
    async (purpose) => {
      const input = await quadrants(4800, 3200).jpeg().toBuffer();
      const result = await processImage(input, purpose, 'image/jpeg');
      expect(await decodedSizes(result)).toEqual(expected[purpose]);
      expect(ready(result).files.map((f) => f.name)).toEqual([...MEDIA_VARIANT_NAMES]);
      const large = file(result, 'large');
      expect(ready(result)).toMatchObject({ width: large.width, height: large.height });
      for (const f of ready(result).files) expectColours(await quadrantColours(f), [RED, GREEN, BLUE, YELLOW]);
    },
  );

  it('never enlarges a small post image, and fills an avatar exactly', async () => {
    const tiny = await quadrants(40, 30).png().toBuffer();
    expect(await decodedSizes(await processImage(tiny, 'post_image', 'image/png'))).toEqual({
      source: '40x30',
      large: '40x30',
      medium: '40x30',
      small: '40x30',
    });
    expect(await decodedSizes(await processImage(tiny, 'avatar', 'image/png'))).toMatchObject({ large: '800x800' });
  });

  it('keeps the resolution a cover crop needs from a panorama (the source may be smaller)', async () => {
    // 8000 × 1000 in horizontal stripes two pixels high: the banner's source is 3000 × 375, but
    // its 1500 × 500 crop has 500 rows of the upload, where the stripes are one pixel high.
    const [width, height] = [8000, 1000];
    const stripes = Buffer.alloc(width * height);
    for (let y = 0; y < height; y++) stripes.fill(y % 4 < 2 ? 0 : 255, y * width, (y + 1) * width);
    const panorama = await sharp(stripes, { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer();
    const result = await processImage(panorama, 'banner', 'image/png');
    expect(await decodedSizes(result)).toEqual({
      source: '3000x375',
      large: '1500x500',
      medium: '1000x333',
      small: '600x200',
    });
    // Stripes finer than two pixels cannot survive in a 375-row image: enlarged from it, they would be flat grey.
    const { data } = await sharp(file(result, 'large').body).raw().toBuffer({ resolveWithObject: true });
    const column = Array.from({ length: 300 }, (_, i) => data[(100 + i) * 1500 + 750]!);
    expect(Math.max(...column) - Math.min(...column)).toBeGreaterThan(150);
  });
});

describe('processImage: upright, metadata stripped, colour profile kept', () => {
  it('turns a landscape photo with EXIF orientation 6 upright', async () => {
    // Upright it is 600 × 800 (portrait); the camera stored it 90° anticlockwise with orientation 6.
    const upright = await quadrants(600, 800).png().toBuffer();
    const stored = await sharp(upright).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    const storedMeta = await sharp(stored).metadata();
    expect([storedMeta.width, storedMeta.height, storedMeta.orientation]).toEqual([800, 600, 6]);

    const result = await processImage(stored, 'post_image', 'image/jpeg');
    for (const name of ['source', 'small'] as const) {
      const f = file(result, name);
      expect(f.height).toBeGreaterThan(f.width);
      expectColours(await quadrantColours(f), [RED, GREEN, BLUE, YELLOW]);
      expect((await sharp(f.body).metadata()).orientation).toBeUndefined();
    }
  });

  it('strips EXIF, GPS, XMP and comments and keeps the ICC profile, byte for byte', async () => {
    const photo = withJpegComment(
      await quadrants(640, 480)
        .withIccProfile('p3')
        .withExif({
          IFD0: { Make: 'TattleCam', Artist: 'Ada Example' },
          IFD3: {
            GPSLatitudeRef: 'N',
            GPSLatitude: '51/1 30/1 0/1',
            GPSLongitudeRef: 'W',
            GPSLongitude: '0/1 7/1 0/1',
          },
        })
        .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/>XmpSecretTag</x:xmpmeta>')
        .jpeg()
        .toBuffer(),
      'CommentSecret',
    );
    const before = await sharp(photo).metadata();
    expect(before.exif?.toString('latin1')).toContain('TattleCam');
    // The GPS IFD pointer: tag 0x8825 of type LONG, little-endian.
    expect(before.exif?.includes(Buffer.from([0x25, 0x88, 0x04, 0x00]))).toBe(true);
    expect(before.xmpAsString).toContain('XmpSecretTag');
    expect(photo.toString('latin1')).toContain('CommentSecret');
    expect(before.icc?.length).toBeGreaterThan(0);

    const result = await processImage(photo, 'avatar', 'image/jpeg');
    for (const f of ready(result).files) {
      const after = await sharp(f.body).metadata();
      expect([after.exif, after.xmp, after.iptc, after.comments]).toEqual([undefined, undefined, undefined, undefined]);
      expect(after.icc?.equals(before.icc!)).toBe(true);
      const bytes = f.body.toString('latin1');
      for (const secret of ['TattleCam', 'Ada Example', 'XmpSecretTag', 'CommentSecret', 'Exif\0\0']) {
        expect(bytes).not.toContain(secret);
      }
    }
  });

  it('strips PNG text chunks, and keeps transparency (as WebP) and the profile', async () => {
    const logo = await sharp({
      create: { width: 200, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([{ input: { create: { width: 100, height: 100, channels: 4, background: '#f00' } }, left: 0, top: 0 }])
      .withIccProfile('p3')
      .withExif({ IFD0: { Software: 'PngTattler' } })
      .png()
      .toBuffer();
    const before = await sharp(logo).metadata();
    expect(before.exif?.toString('latin1')).toContain('PngTattler');

    const result = await processImage(logo, 'post_image', 'image/png');
    const large = file(result, 'large');
    expect(large.contentType).toBe('image/webp');
    expect(large.extension).toBe('webp');
    const after = await sharp(large.body).metadata();
    expect([after.exif, after.xmp, after.comments, after.hasAlpha]).toEqual([undefined, undefined, undefined, true]);
    expect(after.icc?.equals(before.icc!)).toBe(true);
    const { data } = await sharp(large.body).raw().toBuffer({ resolveWithObject: true });
    expect([data[3], data[(50 * 200 + 150) * 4 + 3]]).toEqual([255, 0]); // opaque left, transparent right
  });
});

describe('processImage: every accepted type, decided by the bytes', () => {
  const encoders: Record<MediaContentType, (image: Sharp) => Sharp> = {
    'image/jpeg': (image) => image.jpeg(),
    'image/png': (image) => image.png(),
    'image/webp': (image) => image.webp(),
    'image/gif': (image) => image.gif(),
    'image/avif': (image) => image.avif(),
  };

  it.each(Object.keys(encoders) as MediaContentType[])('processes %s (opaque: JPEG files)', async (type) => {
    const input = await encoders[type](quadrants(96, 64)).toBuffer();
    const result = await processImage(input, 'post_image', type);
    expect(ready(result).files.map((f) => f.contentType)).toEqual(Array(4).fill('image/jpeg'));
    expectColours(await quadrantColours(file(result, 'large')), [RED, GREEN, BLUE, YELLOW]);
  });

  it('takes the first frame of an animated GIF', async () => {
    const frames = await Promise.all(
      [RED, BLUE, GREEN].map((c) =>
        sharp({ create: { width: 64, height: 48, channels: 3, background: colour(c) } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const large = file(await processImage(gif, 'post_image', 'image/gif'), 'large');
    expect([large.width, large.height, large.contentType]).toEqual([64, 48, 'image/jpeg']);
    expectColours([await pixelAt(large.body, 32, 24)], [RED]);
  });

  const unsupported = { ok: false, errorCode: 'unsupported_media_type' };

  it('refuses text declared as a PNG', async () => {
    expect(await processImage(Buffer.from('hello, I am not a picture\n'), 'avatar', 'image/png')).toMatchObject(
      unsupported,
    );
    expect(await processImage(Buffer.alloc(0), 'avatar', 'image/png')).toMatchObject(unsupported);
  });

  it('refuses a PNG declared as a JPEG, and says what it is', async () => {
    const png = await quadrants(64, 48).png().toBuffer();
    const result = await processImage(png, 'avatar', 'image/jpeg');
    expect(result).toMatchObject(unsupported);
    expect(!result.ok && result.errorMessage).toMatch(/PNG.*image\/jpeg/);
  });

  it('refuses HEIC whatever it is declared as, and SVG', async () => {
    // An ISO base media file header with HEIC brands, as an iPhone writes it.
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'),
      Buffer.alloc(64, 1),
    ]);
    for (const declared of ['image/avif', 'image/jpeg'] as const) {
      const result = await processImage(heic, 'post_image', declared);
      expect(result).toMatchObject(unsupported);
      expect(!result.ok && result.errorMessage).toMatch(/HEIC/);
    }
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(await processImage(svg, 'post_image', 'image/png')).toMatchObject(unsupported);
  });

  it('refuses undecodable bytes behind a valid signature: a truncated JPEG, a corrupt PNG', async () => {
    const jpeg = await quadrants(640, 480).jpeg().toBuffer();
    expect(await processImage(jpeg.subarray(0, jpeg.length / 2), 'avatar', 'image/jpeg')).toMatchObject(unsupported);
    const png = await quadrants(64, 48).png().toBuffer();
    const corrupt = Buffer.from(png);
    corrupt.fill(7, 40, png.length - 12); // inside the IDAT chunk
    expect(await processImage(corrupt, 'avatar', 'image/png')).toMatchObject(unsupported);
  });
});

describe('processImage: a decompression bomb', () => {
  it('refuses 256 megapixels from a 30 KB PNG without decoding it: memory stays flat', async () => {
    // The builder makes real PNGs: a small one processes.
    expect(ready(await processImage(blackPng(64, 48), 'post_image', 'image/png')).files).toHaveLength(4);

    const bomb = blackPng(16000, 16000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const meta = await sharp(bomb).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 16000, 16000]);

    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 1);
    const started = performance.now();
    const result = await processImage(bomb, 'post_image', 'image/png');
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());

    expect(result).toEqual({
      ok: false,
      errorCode: 'image_too_large',
      errorMessage: 'The image has 256,000,000 pixels (16000 × 16000); at most 40,000,000 are accepted.',
    });
    // Decoded, it is 256 MB at one byte a pixel; the header read costs next to nothing.
    expect(peak - baseline).toBeLessThan(32 * 1024 * 1024);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe('sniffImageType: the magic bytes', () => {
  const iso = (...brands: string[]) => {
    const box = Buffer.alloc(8 + 4 * (brands.length + 1));
    box.writeUInt32BE(box.length, 0);
    box.write('ftyp', 4, 'latin1');
    box.write(brands[0]!, 8, 'latin1'); // then the minor version (zero) and the compatible brands
    brands.slice(1).forEach((brand, i) => box.write(brand, 16 + 4 * i, 'latin1'));
    return Buffer.concat([box, Buffer.alloc(16)]);
  };

  it('tells AVIF from HEIC by the brands of the ftyp box, compatible brands included', () => {
    expect(sniffImageType(iso('avif', 'mif1', 'miaf'))).toBe('image/avif');
    expect(sniffImageType(iso('mif1', 'miaf', 'avif'))).toBe('image/avif');
    expect(sniffImageType(iso('heic', 'mif1', 'heic'))).toBe('image/heic');
    expect(sniffImageType(iso('mif1', 'heic'))).toBe('image/heic');
    expect(sniffImageType(iso('isom', 'mp41'))).toBeUndefined(); // an MP4 video
  });

  it('needs the whole signature', () => {
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeUndefined();
    expect(sniffImageType(Buffer.from('\x89PNG\r\n', 'latin1'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('GIF89a', 'latin1'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVE', 'latin1'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'))).toBe('image/webp');
  });
});
