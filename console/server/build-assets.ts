/**
 * Bundles the console (Preact + openapi-fetch, with esbuild) and gathers the reference page
 * (Swagger UI from the swagger-ui-dist package), all in memory. The local server calls it at start;
 * the CDK stack calls it at synth time to fill the console Lambda's layer (writeAssets).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { LINK_PAGES } from '../app/link-pages.js';
import type { Asset, Assets } from './assets.js';

/** The console's own sources, found from this file, so the build runs the same from any working directory. */
const source = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
};

function asset(body: Buffer | string, extension: string, immutable: boolean): Asset {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const zipped = extension === '.png' ? undefined : gzipSync(bytes, { level: 9 });
  return {
    contentType: TYPES[extension]!,
    body: bytes,
    immutable,
    ...(zipped && zipped.length < bytes.length ? { gzip: zipped } : {}),
  };
}

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
${head}
</head>
<body>
${body}
</body>
</html>
`;

export function buildConsoleAssets(): Assets {
  const assets = new Map<string, Asset>();

  const result = buildSync({
    entryPoints: { console: source('app/main.tsx'), docs: source('docs/main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome115', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: '/assets',
    write: false,
    logLevel: 'warning',
  });
  const names: Record<string, string> = {};
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    names[name.replace(/-[A-Z0-9]+(\.\w+)$/, '$1')] = name;
    const prefix = name.startsWith('docs') ? '/docs/assets/' : '/console/assets/';
    assets.set(prefix + name, asset(Buffer.from(file.contents), name.slice(name.lastIndexOf('.')), true));
  }

  // Relative URLs: the pages work wherever the API is mounted (the local server, a gateway stage).
  // The link pages (/console/mail, …) are one level deeper, so their URLs start one level up.
  const consolePage = (assetsDir: string) =>
    asset(
      page(
        'Webhook console',
        `<link rel="stylesheet" href="${assetsDir}/${names['console.css']}">\n<script type="module" src="${assetsDir}/${names['console.js']}"></script>`,
        '<div id="app"></div>\n<noscript>The webhook console needs JavaScript.</noscript>',
      ),
      '.html',
      false,
    );
  assets.set('/console', consolePage('console/assets'));
  for (const linkPage of LINK_PAGES) assets.set(`/console/${linkPage}`, consolePage('assets'));

  const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const version = (JSON.parse(readFileSync(join(swagger, 'package.json'), 'utf8')) as { version: string }).version;
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
    assets.set(
      `/docs/assets/${version}/${file}`,
      asset(readFileSync(join(swagger, file)), file.slice(file.lastIndexOf('.')), true),
    );
  }
  assets.set(
    '/docs',
    asset(
      page(
        'Social Network Service API reference',
        `<link rel="stylesheet" href="docs/assets/${version}/swagger-ui.css">\n<script src="docs/assets/${version}/swagger-ui-bundle.js" defer></script>\n<script type="module" src="docs/assets/${names['docs.js']}"></script>`,
        '<div id="reference"></div>\n<noscript>The API reference needs JavaScript; the document itself is at <a href="v1/openapi.json">/v1/openapi.json</a>.</noscript>',
      ),
      '.html',
      false,
    ),
  );
  return assets;
}

/** Writes assets as files plus a manifest, for readAssets (the Lambda layer). */
export function writeAssets(directory: string, assets: Assets): void {
  mkdirSync(directory, { recursive: true });
  const manifest = [...assets].map(([path, item], i) => {
    const file = `${i}${/\.\w+$/.exec(path)?.[0] ?? '.html'}`;
    writeFileSync(join(directory, file), item.body);
    if (item.gzip) writeFileSync(join(directory, `${file}.gz`), item.gzip);
    return { path, file, contentType: item.contentType, immutable: item.immutable, gzip: Boolean(item.gzip) };
  });
  writeFileSync(join(directory, 'manifest.json'), JSON.stringify(manifest, null, 2));
}
