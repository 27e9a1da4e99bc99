/**
 * The console's and the reference page's files, and how they are served: one answer for the local
 * server and for the Lambda behind API Gateway. No bundler and no file system here, so the Lambda
 * stays small.
 */
export interface Asset {
  contentType: string;
  body: Buffer;
  /** The same body gzipped, when that is smaller. */
  gzip?: Buffer;
  /** Hashed file names never change content: browsers may keep them for a year. */
  immutable: boolean;
}

/** URL path (e.g. `/console`, `/console/assets/app-3F2A.js`) → file. */
export type Assets = ReadonlyMap<string, Asset>;

export interface StaticResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export const CONSOLE_PREFIXES = ['/console', '/docs'] as const;

/** Whether a path belongs to the console or the reference page rather than to the API. */
export const isConsolePath = (path: string) =>
  CONSOLE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

const SECURITY_HEADERS = {
  // Scripts and styles only from this origin; the API is the only thing the pages call.
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function text(status: number, message: string, extra: Record<string, string> = {}): StaticResponse {
  return {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...SECURITY_HEADERS,
      ...extra,
    },
    body: Buffer.from(message),
  };
}

/** The answer to a GET or HEAD of a console or reference path. */
export function serveAsset(assets: Assets, method: string, path: string, acceptEncoding = ''): StaticResponse {
  if (method !== 'GET' && method !== 'HEAD')
    return text(405, 'Method not allowed: the console and the API reference are read with GET.\n', {
      allow: 'GET, HEAD',
    });
  // Pages use relative URLs (assets, the API), so a trailing slash would resolve them one level too deep.
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed !== path && assets.has(trimmed))
    return { ...text(308, `Moved to ${trimmed}\n`), headers: { ...text(308, '').headers, location: trimmed } };
  const asset = assets.get(path);
  if (!asset)
    return text(
      404,
      'Not found. The web console is at /console and the API reference at /docs; the API itself is under /v1.\n',
    );
  const gzip = asset.gzip && /\bgzip\b/.test(acceptEncoding);
  const body = gzip ? asset.gzip! : asset.body;
  return {
    status: 200,
    headers: {
      'content-type': asset.contentType,
      'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      ...SECURITY_HEADERS,
    },
    body: method === 'HEAD' ? Buffer.alloc(0) : body,
  };
}

interface ManifestEntry {
  path: string;
  file: string;
  contentType: string;
  immutable: boolean;
  gzip: boolean;
}

/** Reads the assets that `writeAssets` put in a directory (the Lambda's layer). */
export async function readAssets(directory: string): Promise<Assets> {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(`${directory}/manifest.json`, 'utf8')) as ManifestEntry[];
  const entries = await Promise.all(
    manifest.map(async (entry): Promise<[string, Asset]> => [
      entry.path,
      {
        contentType: entry.contentType,
        immutable: entry.immutable,
        body: await readFile(`${directory}/${entry.file}`),
        ...(entry.gzip ? { gzip: await readFile(`${directory}/${entry.file}.gz`) } : {}),
      },
    ]),
  );
  return new Map(entries);
}
