import type { BuildOptions, Metafile } from 'esbuild';
import { projectPath } from './project-root.js';

/**
 * How every Lambda is bundled, in esbuild's terms: the CDK stack's NodejsFunction settings
 * (infra/lambda-defaults.ts) and the bundle benchmark both follow this.
 * ESM output needs `require` for the CommonJS dependencies that call it (Node built-ins among
 * others); the aliased import keeps the banner from colliding with a bundled `createRequire`.
 */
export const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export const LAMBDA_BUNDLING = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  sourcemap: true,
  // Lambda runs with --enable-source-maps (lambda-defaults.ts), so Node reads and parses the map
  // when it loads the bundle: without the sources inside, a typical map is 0.55 MB instead of
  // 1.8 MB and that costs ~4 ms less at every cold start. Stack traces still name file and line.
  sourcesContent: false,
  // ESM-first packages (middy, zod) resolve to their ESM builds.
  mainFields: ['module', 'main'],
  banner: { js: REQUIRE_BANNER },
  // The AWS SDK is bundled too (see lambda-defaults.ts for why). Left out: two files that undici
  // (the webhook sender's HTTP client) requires lazily, on paths the sender never takes, 112 KiB:
  // its second HTTP parser, loaded only where WebAssembly SIMD fails (not on Lambda's Node 24,
  // x86_64 or arm64), and the fetch body encoder, loaded only for a FormData body (the sender
  // posts a string). Named as undici's requires spell them: `alias` cannot replace a relative
  // path, and an absolute one would put this machine's path into the bundle.
  // test/bundle/lambda-bundle-contents.test.ts checks that only the sender's requires match.
  external: ['../llhttp/llhttp-wasm.js', '../web/fetch/body.js'],
  // Parts of the AWS SDK a Lambda of this service never runs (see each module for why and the saving):
  // the default credential chain (a Lambda reads its credentials from the environment) and the
  // event-stream codecs (no operation used here has an event-stream member).
  alias: {
    '@aws-sdk/credential-provider-node': projectPath('shared/ports/aws/lambda-env-credentials.ts'),
    '@smithy/core/event-streams': projectPath('shared/ports/aws/no-event-streams.ts'),
    // ajv inside the MCP SDK (the MCP function only; see the module for why).
    '@modelcontextprotocol/server/_shims': projectPath('shared/mcp/no-json-schema-validator.ts'),
  },
} satisfies BuildOptions;

/**
 * The MCP function's bundle: split at its dynamic imports (functions/mcp/tool-handlers.ts), so a
 * cold start loads the entry and its shared chunks (the MCP core: protocol, credentials, the
 * middleware every tool route shares) and a tool call adds only its route's chunk. The entry is
 * `index.mjs` beside a `chunks/` folder, in the asset and in `npm run bundles` alike.
 */
export const MCP_BUNDLING = {
  ...LAMBDA_BUNDLING,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
} satisfies BuildOptions;

/**
 * The output files a split bundle's entry loads before its first dynamic import (what a cold start
 * reads and evaluates): the entry and, transitively, the chunks it imports statically. Paths as
 * esbuild's metafile names them.
 */
export function loadedAtStart(
  outputs: Metafile['outputs'],
  entry: string,
  skip: ReadonlySet<string> = new Set(),
): Set<string> {
  const loaded = new Set<string>();
  const walk = (file: string) => {
    if (loaded.has(file) || skip.has(file)) return;
    loaded.add(file);
    for (const imported of outputs[file]!.imports)
      if (imported.kind === 'import-statement' && !imported.external) walk(imported.path);
  };
  walk(entry);
  return loaded;
}
