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
import { LAMBDA_BUNDLING } from '../../infra/bundling.js';
import { projectPath } from '../../infra/project-root.js';
import { httpHandlerModules, MCP_HANDLER, OTHER_LAMBDA_ENTRIES } from '../../infra/local/handler-bundles.js';
import { percentile, printTable, verdict } from './support.js';

const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 5);

function importMs(file: string, nodeOptions: string[] = []): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`;
  const out = execFileSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], {
    env: { ...process.env, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' },
  });
  return Number(out.toString().trim());
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
      file: join(out, `${fn.name.replaceAll('/', '__')}.mjs`),
      times: [] as number[],
      bytes: 0,
    }));
    for (const fn of functions) {
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
      for (const fn of functions) fn.times.push(importMs(fn.file));
      deployed.times.push(importMs(deployed.file, ['--enable-source-maps']));
    }
    const loadAfter = loadavg()[0]!;

    const rows = functions
      .map((fn) => {
        const times = [...fn.times].sort((a, b) => a - b);
        return { ...fn, p50: percentile(times, 50), max: times[times.length - 1]! };
      })
      .sort((a, b) => b.bytes - a.bytes);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const httpRows = rows.filter((r) => r.http);
    const typical = median(httpRows.map((r) => r.bytes));
    const largestHttp = httpRows[0]!;
    const largest = rows.find((r) => r.name !== MCP_HANDLER)!;
    const importP50 = median(httpRows.map((r) => r.p50));
    const of = (name: string) => rows.find((r) => r.name === name)!;
    printTable(
      'Goal 4: Lambda size and start',
      ['measure', 'measured', 'goal', ''],
      [
        ['typical (median) HTTP function', `${kib(typical)} KiB`, '≤ 400 KiB', verdict(typical <= 400 * 1024)],
        [
          'largest HTTP function',
          `${kib(largestHttp.bytes)} KiB (${largestHttp.name})`,
          '≤ 600 KiB',
          verdict(largestHttp.bytes <= 600 * 1024),
        ],
        [
          'largest function of all but MCP',
          `${kib(largest.bytes)} KiB (${largest.name})`,
          '≤ 600 KiB',
          verdict(largest.bytes <= 600 * 1024),
        ],
        ['system/health', `${kib(of('system/health').bytes)} KiB`, 'far smaller', ''],
        ['system/route-not-found ($default)', `${kib(of('system/route-not-found').bytes)} KiB`, 'far smaller', ''],
        [
          'log-in: POST /v1/sessions / passkey sign-in',
          `${kib(of('identity/create-session').bytes)} / ${kib(of('passkeys/sign-in').bytes)} KiB`,
          '≤ 400 KiB',
          verdict(Math.max(of('identity/create-session').bytes, of('passkeys/sign-in').bytes) <= 400 * 1024),
        ],
        [
          'MCP function (every tool route inside): size / import p50',
          `${kib(of(MCP_HANDLER).bytes)} KiB / ${of(MCP_HANDLER).p50.toFixed(1)} ms`,
          '< 1024 KiB',
          verdict(of(MCP_HANDLER).bytes < 1024 * 1024),
        ],
        ['median import p50 (HTTP functions)', `${importP50.toFixed(1)} ms`, '≤ 50 ms', verdict(importP50 <= 50)],
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
      ['function', 'bytes', 'KiB', 'import p50 ms', 'import max ms'],
      rows.map((r) => [r.name, r.bytes, kib(r.bytes), r.p50.toFixed(1), r.max.toFixed(1)]),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
