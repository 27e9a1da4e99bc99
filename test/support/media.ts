/** Media as a client does it: create, upload the form with fetch + FormData, poll until processed. */
import sharp from 'sharp';
import { call, type ApiResponse } from './api.js';

export interface Upload {
  url: string;
  method: 'POST';
  fields: Record<string, string>;
  expires_at: string;
}

export const createMedia = (
  token: string,
  profileId: string,
  body: { purpose: string; content_type: string; content_length: number },
) => call('POST', '/v1/media', { token, profileId, body });

/**
 * Posts the upload form as a browser would: every field as given, in order, then the file as
 * `file`. `fields` overrides or adds fields (a tampered form).
 */
export async function postUpload(
  upload: Upload,
  file: Buffer,
  options: { fields?: Record<string, string>; fileType?: string } = {},
): Promise<{ status: number; text: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...upload.fields, ...options.fields })) form.append(name, value);
  form.append(
    'file',
    new Blob([new Uint8Array(file)], { type: options.fileType ?? 'application/octet-stream' }),
    'upload',
  );
  const response = await fetch(upload.url, { method: upload.method, body: form });
  return { status: response.status, text: await response.text() };
}

/** GET /v1/media/{id} until it is ready or failed (every 100 ms, at most `timeoutMs`). */
export async function waitForMedia(token: string, mediaId: string, timeoutMs = 15_000): Promise<ApiResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await call('GET', `/v1/media/${mediaId}`, { token });
    const status = (response.body.data as { status?: string } | null)?.status;
    if (response.status !== 200 || (status !== 'awaiting_upload' && status !== 'processing')) return response;
    if (Date.now() > deadline) throw new Error(`media ${mediaId} still ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A photo as a phone takes it: `width` × `height` stored pixels, the top half red and the bottom
 * half blue as stored, with an EXIF orientation (6: shown turned 90° clockwise) and GPS position.
 */
export function photo(width: number, height: number, orientation = 1): Promise<Buffer> {
  const half = Math.floor(height / 2);
  const band = (colour: { r: number; g: number; b: number }, h: number) =>
    sharp({ create: { width, height: h, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return Promise.all([band({ r: 220, g: 20, b: 20 }, half), band({ r: 20, g: 20, b: 220 }, height - half)]).then(
    ([top, bottom]) =>
      sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
        .composite([
          { input: top, top: 0, left: 0 },
          { input: bottom, top: half, left: 0 },
        ])
        .withExif({
          IFD0: { Make: 'TestPhone', Model: 'Camera 1' },
          IFD3: {
            GPSLatitudeRef: 'N',
            GPSLatitude: '48/1 51/1 0/1',
            GPSLongitudeRef: 'E',
            GPSLongitude: '2/1 21/1 0/1',
          },
        })
        .withMetadata({ orientation })
        .jpeg({ quality: 90 })
        .toBuffer(),
  );
}

/** The colour of one pixel of an encoded image, as [r, g, b]. */
export async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}
