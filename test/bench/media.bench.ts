/**
 * `npm run bench` (media part): the time processImage takes to turn an upload into its four
 * files, in this process (the processor's work without storage), for a generated 12-megapixel
 * phone photo (JPEG, 4000 × 3000 stored sideways with EXIF orientation 6 and a Display P3
 * profile, as phones write them) and a 1-megapixel PNG, for each purpose. Each case runs once to
 * warm up, then RUNS times; p50 and max of those. The photo is synthetic (gradients, shapes and
 * sensor-like noise), so the output sizes are indicative: a real photo's detail differs.
 */
import os from 'node:os';
import sharp, { type Sharp } from 'sharp';
import { MEDIA_PURPOSES, type MediaContentType, type MediaPurpose } from '../../shared/domain/media.js';
import { processImage } from '../../shared/media/process-image.js';
import { percentile, printTable, verdict } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** API.md: a 12-megapixel photo is ready within 10 s of its upload. */
const GOAL_MS = 10_000;

/** Overlapping translucent circles on a diagonal gradient, plus gaussian noise. */
async function photoLike(width: number, height: number): Promise<Sharp> {
  const circles = Array.from({ length: 40 }, (_, i) => {
    const [x, y, r] = [(i * 997) % width, (i * 631) % height, (Math.min(width, height) / 30) * (1 + (i % 7))];
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${i * 47},70%,${30 + (i % 40)}%)" fill-opacity="0.6"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a6"/><stop offset="1" stop-color="#a52"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`;
  const pixels = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 6 } },
  })
    .raw()
    .toBuffer();
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.max(0, Math.min(255, pixels[i]! + noise[i]! - 128));
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

interface Case {
  input: string;
  bytes: Buffer;
  type: MediaContentType;
  purpose: MediaPurpose;
  goal: boolean;
}

async function measure({ bytes, type, purpose }: Case) {
  const times: number[] = [];
  let outBytes = 0;
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const result = await processImage(bytes, purpose, type);
    const elapsed = performance.now() - started;
    if (!result.ok) throw new Error(`${purpose}: ${result.errorCode} ${result.errorMessage}`);
    outBytes = result.files.reduce((sum, file) => sum + file.body.length, 0);
    if (run > 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), max: times.at(-1)!, outBytes };
}

async function main() {
  // The camera's sensor is landscape; the phone was held upright, so it says "rotate 90°" (6).
  const phonePhoto = await (
    await photoLike(4000, 3000)
  )
    .withIccProfile('p3')
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Phone' } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const png = await (await photoLike(1224, 816)).png().toBuffer();
  const cases: Case[] = [
    ...MEDIA_PURPOSES.map((purpose) => ({
      input: '12 MP JPEG (phone photo)',
      bytes: phonePhoto,
      type: 'image/jpeg' as const,
      purpose,
      goal: true,
    })),
    ...MEDIA_PURPOSES.map((purpose) => ({
      input: '1 MP PNG',
      bytes: png,
      type: 'image/png' as const,
      purpose,
      goal: false,
    })),
  ];
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const rows: (string | number)[][] = [];
  for (const c of cases) {
    const { p50, max, outBytes } = await measure(c);
    rows.push([
      c.input,
      kib(c.bytes.length),
      c.purpose,
      p50,
      max,
      kib(outBytes),
      c.goal ? `≤ ${GOAL_MS / 1000} s` : '',
      c.goal ? verdict(max <= GOAL_MS, `${max} ms`, 'fewer or smaller variants, or more processor memory (CPU)') : '',
    ]);
  }
  printTable(
    `Media processing: processImage, upload to four files (p50 and max of ${RUNS} runs after a warm-up; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips})`,
    ['input', 'size', 'purpose', 'p50 ms', 'max ms', 'four files', 'goal', ''],
    rows,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
