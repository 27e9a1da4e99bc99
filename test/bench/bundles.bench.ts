/**
 * `npm run bench` (Lambda part): bundles every function of the stack the way the CDK stack does
 * (infra/bundling.ts: esbuild, ESM, minified, AWS SDK bundled, target node22) and reports each
 * bundle's size and the time a fresh Node process takes to import it — a proxy for the cold-start
 * init phase. The imports go round-robin over the bundles, so a burst of load elsewhere on the
 * machine spreads over all of them instead of landing on a few.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { LAMBDA_BUNDLING, loadedAtStart, MCP_BUNDLING } from '../../infra/bundling.js';
import { projectPath } from '../../infra/project-root.js';
import { httpHandlerModules, MCP_HANDLER, OTHER_LAMBDA_ENTRIES } from '../../infra/local/handler-bundles.js';
import { percentile, printTable, verdict } from './support.js';

const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 5);

/**
 * One import of a bundle in a fresh Node: wall time, and the process's CPU time (user + system)
 * over the import, which load elsewhere on the machine scrambles far less than wall time.
 */
function importOnce(file: string, nodeOptions: string[] = []): { ms: number; cpuMs: number } {
  const script = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(file)}); const ms = performance.now() - t; const u = process.cpuUsage(c); console.log(ms, (u.user + u.system) / 1000);`;
  const out = execFileSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], {
    env: { ...process.env, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' },
  });
  const [ms, cpuMs] = out.toString().trim().split(' ').map(Number);
  return { ms: ms!, cpuMs: cpuMs! };
}

function importMs(file: string, nodeOptions: string[] = [], cpu?: number[]): number {
  const { ms, cpuMs } = importOnce(file, nodeOptions);
  cpu?.push(cpuMs);
  return ms;
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

async function main() {
  // Inside the project, so that sharp (not bundled: see below) resolves from its node_modules.
  mkdirSync(projectPath('.bench'), { recursive: true });
  const out = mkdtempSync(projectPath('.bench', 'bundles-'));
  try {
    const http = httpHandlerModules();
    const functions = [
      // The MCP function carries every tool route's handler: measured on its own line, against its own budget.
      ...http.map((handler) => ({ name: handler, entry: `functions/${handler}.ts`, http: handler !== MCP_HANDLER })),
      ...OTHER_LAMBDA_ENTRIES.map((entry) => ({
        name: entry.replace(/^functions\//, '').replace(/\.ts$/, ''),
        entry,
        http: false,
      })),
    ].map((fn) => ({
      ...fn,
      file: fn.name === MCP_HANDLER ? join(out, 'mcp', 'index.mjs') : join(out, `${fn.name.replaceAll('/', '__')}.mjs`),
      times: [] as number[],
      cpu: [] as number[],
      bytes: 0,
    }));
    /** The MCP function is split (infra/bundling.ts): its cold start loads the entry and the chunks it imports statically. */
    const mcp = { allBytes: 0, files: 0, largestToolChunk: { name: '', bytes: 0 } };
    for (const fn of functions) {
      if (fn.name === MCP_HANDLER) {
        const { metafile } = await build({
          ...MCP_BUNDLING,
          entryPoints: { index: fn.entry },
          outdir: join(out, 'mcp'),
          sourcemap: false,
          metafile: true,
          logLevel: 'error',
        });
        const outputs = metafile.outputs;
        const entry = Object.keys(outputs).find((file) => file.endsWith('mcp/index.mjs'))!;
        const cold = loadedAtStart(outputs, entry);
        fn.bytes = [...cold].reduce((sum, file) => sum + outputs[file]!.bytes, 0);
        mcp.allBytes = Object.values(outputs).reduce((sum, output) => sum + output.bytes, 0);
        mcp.files = Object.keys(outputs).length;
        for (const imported of outputs[entry]!.imports.filter((i) => i.kind === 'dynamic-import')) {
          // What the tool's import adds to what the cold start loaded.
          const added = loadedAtStart(outputs, imported.path, cold);
          const bytes = [...added].reduce((sum, file) => sum + outputs[file]!.bytes, 0);
          if (bytes > mcp.largestToolChunk.bytes)
            mcp.largestToolChunk = {
              name: imported.path
                .split('/')
                .pop()!
                .replace(/-[A-Z0-9]+\.mjs$/, ''),
              bytes,
            };
        }
        continue;
      }
      await build({
        ...LAMBDA_BUNDLING,
        // sharp ships beside the media processor's bundle (its libvips binaries are npm packages), as the stack deploys it.
        external: [...LAMBDA_BUNDLING.external, 'sharp'],
        entryPoints: [fn.entry],
        outfile: fn.file,
        sourcemap: false,
        logLevel: 'error',
      });
      fn.bytes = statSync(fn.file).size;
    }
    // The deployed zip also holds the source map, which Lambda's --enable-source-maps
    // (infra/lambda-defaults.ts) makes Node read at load: measured on one typical function.
    const sample = functions.find((fn) => fn.name === 'posts/get-post')!;
    const deployed = { file: join(out, 'deployed', 'posts__get-post.mjs'), times: [] as number[] };
    await build({ ...LAMBDA_BUNDLING, entryPoints: [sample.entry], outfile: deployed.file, logLevel: 'error' });

    const loadBefore = loadavg()[0]!;
    for (let round = 0; round < IMPORTS; round++) {
      for (const fn of functions) fn.times.push(importMs(fn.file, [], fn.cpu));
      deployed.times.push(importMs(deployed.file, ['--enable-source-maps']));
    }
    const loadAfter = loadavg()[0]!;

    const rows = functions
      .map((fn) => {
        const times = [...fn.times].sort((a, b) => a - b);
        return {
          ...fn,
          p50: percentile(times, 50),
          max: times[times.length - 1]!,
          cpuP50: percentile(
            [...fn.cpu].sort((a, b) => a - b),
            50,
          ),
        };
      })
      .sort((a, b) => b.bytes - a.bytes);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const httpRows = rows.filter((r) => r.http);
    const typical = median(httpRows.map((r) => r.bytes));
    const largestHttp = httpRows[0]!;
    const largest = rows.find((r) => r.name !== MCP_HANDLER)!;
    const importP50 = median(httpRows.map((r) => r.p50));
    const importCpuP50 = median(httpRows.map((r) => r.cpuP50));
    const of = (name: string) => rows.find((r) => r.name === name)!;
    printTable(
      'Goal 4: Lambda size and start',
      ['measure', 'measured', 'goal', ''],
      [
        [
          'typical (median) HTTP function',
          `${kib(typical)} KiB`,
          '≤ 400 KiB',
          verdict(
            typical <= 400 * 1024,
            `${kib(typical)} KiB`,
            'find the largest inputs in the metafile (npm run bundles) and leave out what the routes do not run',
          ),
        ],
        [
          'largest HTTP function',
          `${kib(largestHttp.bytes)} KiB (${largestHttp.name})`,
          '≤ 600 KiB',
          verdict(
            largestHttp.bytes <= 600 * 1024,
            `${kib(largestHttp.bytes)} KiB`,
            'replace its largest dependency by what the AWS SDK already bundles (the search adapter: fetch signed by @smithy/signature-v4)',
          ),
        ],
        [
          'largest function of all but MCP',
          `${kib(largest.bytes)} KiB (${largest.name})`,
          '≤ 600 KiB',
          verdict(
            largest.bytes <= 600 * 1024,
            `${kib(largest.bytes)} KiB`,
            'the same, for that function: its metafile names what weighs',
          ),
        ],
        [
          'live events: AppSync authoriser / publisher',
          `${kib(of('live-subscriptions/authorize').bytes)} / ${kib(of('live-publisher/publish-events').bytes)} KiB`,
          '≤ 300 KiB (no HTTP stack)',
          verdict(
            Math.max(of('live-subscriptions/authorize').bytes, of('live-publisher/publish-events').bytes) <= 300 * 1024,
            `${kib(Math.max(of('live-subscriptions/authorize').bytes, of('live-publisher/publish-events').bytes))} KiB`,
            "the publisher presents feed.post with the contract's zod schemas: present it with zod/mini or without them (metafile)",
          ),
        ],
        ['system/health', `${kib(of('system/health').bytes)} KiB`, 'far smaller', ''],
        ['system/route-not-found ($default)', `${kib(of('system/route-not-found').bytes)} KiB`, 'far smaller', ''],
        [
          'log-in: POST /v1/sessions / passkey sign-in',
          `${kib(of('identity/create-session').bytes)} / ${kib(of('passkeys/sign-in').bytes)} KiB`,
          '≤ 400 KiB',
          verdict(
            Math.max(of('identity/create-session').bytes, of('passkeys/sign-in').bytes) <= 400 * 1024,
            `${kib(Math.max(of('identity/create-session').bytes, of('passkeys/sign-in').bytes))} KiB`,
            'find the module the larger route gained (npm run bundles writes metafiles)',
          ),
        ],
        [
          'MCP function, split: cold start (entry + its static chunks) / import p50',
          `${kib(of(MCP_HANDLER).bytes)} KiB / ${of(MCP_HANDLER).p50.toFixed(1)} ms`,
          '< 1024 KiB',
          verdict(
            of(MCP_HANDLER).bytes < 1024 * 1024,
            `${kib(of(MCP_HANDLER).bytes)} KiB`,
            'move what only some tools need out of the entry and its static chunks (the metafile names them)',
          ),
        ],
        [
          'MCP function: all files / largest a tool call adds',
          `${kib(mcp.allBytes)} KiB in ${mcp.files} files / ${kib(mcp.largestToolChunk.bytes)} KiB (${mcp.largestToolChunk.name})`,
          '',
          '',
        ],
        [
          'median import p50 (HTTP functions)',
          `${importP50.toFixed(1)} ms`,
          '≤ 50 ms',
          verdict(
            importP50 <= 50,
            `${importP50.toFixed(1)} ms`,
            'the SDK (~32 ms CPU) and the route contract (~17 ms) are the floor, both needed by the first request: zod/mini or one schema module per route',
          ),
        ],
        ['median import CPU p50 (HTTP functions; user + system)', `${importCpuP50.toFixed(1)} ms`, '', ''],
        [
          'get-post import p50: bundle / as deployed (+ map, --enable-source-maps)',
          `${of('posts/get-post').p50.toFixed(1)} / ${percentile(
            [...deployed.times].sort((a, b) => a - b),
            50,
          ).toFixed(1)} ms`,
          '',
          '',
        ],
      ],
    );
    printTable(
      `Lambda bundles (esbuild as in the CDK stack; import in a fresh Node ${process.version} process, ${IMPORTS} rounds; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after)`,
      ['function', 'bytes', 'KiB', 'import p50 ms', 'import max ms', 'import CPU p50 ms'],
      rows.map((r) => [r.name, r.bytes, kib(r.bytes), r.p50.toFixed(1), r.max.toFixed(1), r.cpuP50.toFixed(1)]),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
