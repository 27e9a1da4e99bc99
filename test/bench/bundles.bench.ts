/**
 * `npm run bench` (Lambda part): bundles every function of the route table the way the CDK stack
 * does (esbuild, ESM, minified, AWS SDK bundled, target node22) and reports each bundle's size
 * and the time a fresh Node process takes to import it — a proxy for the cold-start init phase.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { routeList } from '../../functions/routes.js';
import { LAMBDA_BUNDLING } from '../../infra/bundling.js';
import { percentile, printTable } from './support.js';

const IMPORTS = Number(process.env.BENCH_IMPORTS ?? 5);
const extra = ['system/route-not-found', 'webhook-pipeline/fan-out', 'webhook-pipeline/send-delivery', 'webhook-pipeline/sweep-deliveries'];

function importMs(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, TABLE_NAME: 'bench', AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' },
  });
  return Number(out.toString().trim());
}

async function main() {
  const out = mkdtempSync(join(tmpdir(), 'bundles-'));
  try {
    const handlers = [...routeList.map((r) => r.handler), ...extra];
    const rows: (string | number)[][] = [];
    for (const handler of handlers) {
      const file = join(out, `${handler.replace('/', '__')}.mjs`);
      try {
        await build({ ...LAMBDA_BUNDLING, entryPoints: [`functions/${handler}.ts`], outfile: file, sourcemap: false, logLevel: 'error' });
      } catch {
        continue; // a non-HTTP function that does not exist yet
      }
      const times = Array.from({ length: IMPORTS }, () => importMs(file)).sort((a, b) => a - b);
      rows.push([handler, Math.round(statSync(file).size / 1024), percentile(times, 50), times[times.length - 1]!]);
    }
    rows.sort((a, b) => (b[1] as number) - (a[1] as number));
    const sizes = rows.map((r) => r[1] as number).sort((a, b) => a - b);
    const http = rows.filter((r) => !String(r[0]).startsWith('webhook-pipeline/'));
    const httpSizes = http.map((r) => r[1] as number).sort((a, b) => a - b);
    const imports = http.map((r) => r[2] as number).sort((a, b) => a - b);
    const of = (name: string) => rows.find((r) => r[0] === name);
    printTable(
      'Goal 4: Lambda size and start (HTTP functions; the webhook pipeline is listed above)',
      ['measure', 'measured', 'goal', ''],
      [
        ['typical (median) HTTP function', `${httpSizes[Math.floor(httpSizes.length / 2)]} KiB`, '≤ 400 KiB', httpSizes[Math.floor(httpSizes.length / 2)]! <= 400 ? 'met' : 'NOT MET'],
        ['largest HTTP function', `${httpSizes[httpSizes.length - 1]} KiB`, '≤ 600 KiB', httpSizes[httpSizes.length - 1]! <= 600 ? 'met' : 'NOT MET'],
        ['largest function of all', `${sizes[sizes.length - 1]} KiB (${rows[0]![0]})`, '≤ 600 KiB', sizes[sizes.length - 1]! <= 600 ? 'met' : 'NOT MET'],
        ['system/health', `${of('system/health')?.[1]} KiB`, 'far smaller', ''],
        ['system/route-not-found ($default)', `${of('system/route-not-found')?.[1]} KiB`, 'far smaller', ''],
        ['median import p50 (HTTP functions)', `${imports[Math.floor(imports.length / 2)]!.toFixed(1)} ms`, '≤ 50 ms', imports[Math.floor(imports.length / 2)]! <= 50 ? 'met' : 'NOT MET'],
      ],
    );
    printTable(`Lambda bundles (esbuild as in the CDK stack; import time in a fresh Node ${process.version} process, ${IMPORTS} runs)`, ['function', 'KiB', 'import p50 ms', 'import max ms'], rows);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
