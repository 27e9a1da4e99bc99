import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleAssets, writeAssets } from '../../console/server/build-assets.js';

const event = (method: string, path: string, headers: Record<string, string> = {}) =>
  ({ rawPath: path, headers, requestContext: { http: { method } } }) as unknown as APIGatewayProxyEventV2;

describe('console Lambda (AWS)', () => {
  let directory: string;
  let handler: typeof import('../../console/server/lambda.js').handler;
  beforeAll(async () => {
    // What the stack's layer holds: the assets written at synth time, read at cold start.
    directory = mkdtempSync(join(tmpdir(), 'console-assets-'));
    writeAssets(directory, buildConsoleAssets());
    process.env.CONSOLE_ASSETS_DIR = directory;
    ({ handler } = await import('../../console/server/lambda.js'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('serves the console page and its bundles base64-encoded, gzipped when accepted', async () => {
    const page = await handler(event('GET', '/console'));
    expect(page).toMatchObject({
      statusCode: 200,
      isBase64Encoded: true,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const html = Buffer.from(page.body!, 'base64').toString();
    const script = /src="(console\/assets\/[^"]+\.js)"/.exec(html)![1]!;

    const zipped = await handler(event('GET', `/${script}`, { 'accept-encoding': 'gzip, br' }));
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers).toMatchObject({
      'content-encoding': 'gzip',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    const plain = await handler(event('GET', `/${script}`));
    expect(plain.headers?.['content-encoding']).toBeUndefined();
    expect(gunzipSync(Buffer.from(zipped.body!, 'base64')).equals(Buffer.from(plain.body!, 'base64'))).toBe(true);
  });

  it('serves /docs and answers 404 for unknown files', async () => {
    expect((await handler(event('GET', '/docs'))).statusCode).toBe(200);
    const missing = await handler(event('GET', '/docs/assets/nope.js'));
    expect(missing.statusCode).toBe(404);
    expect(Buffer.from(missing.body!, 'base64').toString()).toContain('/docs');
  });
});
