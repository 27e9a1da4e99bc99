/**
 * The HTTP functions as `cdk deploy` uploads them: one esbuild bundle per handler with the Lambda
 * settings of infra/bundling.ts, so the local server can run the deployed artefacts
 * (`npm start -- --bundles <dir>`) instead of the TypeScript sources.
 *
 *   npm run bundles -- <dir>     builds them into <dir>
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { routeList } from '../../shared/http/contract/route-table.js';
import { LAMBDA_BUNDLING, MCP_BUNDLING } from '../bundling.js';
import { projectPath } from '../project-root.js';

/** The `$default` route's function; not in the route table. */
export const NOT_FOUND_HANDLER = 'system/route-not-found';

/** The MCP endpoint's function (`POST /mcp`); not in the route table, which it serves as tools. */
export const MCP_HANDLER = 'mcp/handler';

/** Every HTTP function's handler module, as named in the route table (`posts/get-post`), and the two beside it. */
export const httpHandlerModules = (): string[] => [
  ...new Set([...routeList.map((route) => route.handler), NOT_FOUND_HANDLER, MCP_HANDLER]),
];

/**
 * The stack's other Lambdas (webhook pipeline, author cards, home feed, counter fold, media pipeline, console, mail, exports, live events), and the streaming routes' redirects, as entry files: the bundle
 * benchmark and the bundle-contents test measure and inspect them beside the HTTP functions.
 */
export const OTHER_LAMBDA_ENTRIES = [
  'functions/webhook-pipeline/fan-out.ts',
  'functions/webhook-pipeline/send-delivery.ts',
  'functions/webhook-pipeline/sweep-deliveries.ts',
  'functions/profile-stream/refresh-author-cards.ts',
  'functions/feed-pipeline/fan-out.ts',
  'functions/feed-pipeline/write-inboxes.ts',
  'functions/counters/fold-counts.ts',
  'functions/media-pipeline/process-upload.ts',
  'functions/media-pipeline/clean-up-media.ts',
  'console/server/lambda.ts',
  'functions/notifications-pipeline/notify.ts',
  'functions/search-pipeline/index-documents.ts',
  'functions/mail-pipeline/send-mail.ts',
  'functions/mail-pipeline/suppress-addresses.ts',
  'functions/erasure/erase-step.ts',
  'functions/audit/record-audit.ts',
  'functions/live-pipeline/log-events.ts',
  'functions/export-pipeline/build-export.ts',
  'functions/live-publisher/publish-events.ts',
  'functions/live-subscriptions/authorize.ts',
  // The HTTP API's answer on each streaming route in AWS (infra/streaming-route.ts).
  ...routeList.filter((route) => route.streaming).map((route) => `functions/${route.handler}-redirect.ts`),
];

/** Where a handler's bundle is; the MCP function's split bundle is a folder, as in its asset (`index.mjs`, `chunks/`). */
export const bundleFile = (dir: string, handler: string): string =>
  handler === MCP_HANDLER ? join(resolve(dir), MCP_HANDLER, 'index.mjs') : join(resolve(dir), `${handler}.mjs`);

/** esbuild's metafile of the build, beside the bundles: what each bundle contains and imports. */
export const METAFILE = 'metafile.json';

/**
 * One esbuild run for all entries (each output is still a self-contained bundle), and one for the
 * MCP function's split bundle. Source maps are left out: they sit beside the code in the deployed
 * zip and change nothing that runs.
 */
export async function buildHandlerBundles(
  outdir: string,
  handlers: readonly string[] = httpHandlerModules(),
): Promise<void> {
  const { build } = await import('esbuild');
  const single = handlers.filter((handler) => handler !== MCP_HANDLER);
  const result = await build({
    ...LAMBDA_BUNDLING,
    sourcemap: false,
    entryPoints: single.map((handler) => ({ in: projectPath(`functions/${handler}.ts`), out: handler })),
    outdir: resolve(outdir),
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'error',
  });
  const outputs = { ...result.metafile.outputs };
  if (handlers.includes(MCP_HANDLER)) {
    const mcp = await build({
      ...MCP_BUNDLING,
      sourcemap: false,
      entryPoints: { index: projectPath(`functions/${MCP_HANDLER}.ts`) },
      outdir: join(resolve(outdir), MCP_HANDLER),
      metafile: true,
      logLevel: 'error',
    });
    Object.assign(outputs, mcp.metafile.outputs);
  }
  writeFileSync(join(resolve(outdir), METAFILE), JSON.stringify({ ...result.metafile, outputs }));
}

/** Fails at start, not at the first request, when a bundle is missing. */
export function assertBundlesPresent(dir: string, handlers: readonly string[] = httpHandlerModules()): void {
  const missing = handlers.filter((handler) => !existsSync(bundleFile(dir, handler)));
  if (missing.length > 0)
    throw new Error(
      `--bundles ${dir}: no bundle for ${missing.join(', ')} (build them with npm run bundles -- ${dir})`,
    );
}

export const importBundle = async <T>(dir: string, handler: string): Promise<T> =>
  ((await import(pathToFileURL(bundleFile(dir, handler)).href)) as { handler: T }).handler;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: npm run bundles -- <dir>');
    process.exit(2);
  }
  const started = performance.now();
  await buildHandlerBundles(dir);
  console.log(
    `${httpHandlerModules().length} HTTP function bundles in ${resolve(dir)} (${Math.round(performance.now() - started)} ms)`,
  );
}
