import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { LAMBDA_BUNDLING } from '../../infra/bundling.js';
import { bundleFile, httpHandlerModules, METAFILE } from '../../infra/local/handler-bundles.js';
import { call } from '../support/api.js';

describe('the Lambda bundles the e2e suite runs against', () => {
  it('are one self-contained ESM file per HTTP function that imports nothing but Node built-ins', () => {
    const dir = inject('bundlesDir');
    const meta = JSON.parse(readFileSync(join(dir, METAFILE), 'utf8')) as Metafile;
    const outputs = new Map(
      Object.entries(meta.outputs).map(([file, output]) => [relative(process.cwd(), file), output]),
    );
    const handlers = httpHandlerModules();
    expect(handlers.length).toBeGreaterThan(40);
    for (const handler of handlers) {
      const file = relative(process.cwd(), bundleFile(dir, handler));
      const output = outputs.get(file);
      expect(output, handler).toBeDefined();
      expect(output!.entryPoint, handler).toMatch(new RegExp(`functions/${handler}\\.ts$`));
      // Everything else (the AWS SDK included, see infra/lambda-defaults.ts) is inside the file.
      // `node:` names are Node's own even where this Node lacks them (node:sqlite: Node 22, not 20).
      const builtin = (path: string) => isBuiltin(path) || path.startsWith('node:');
      // undici's files that infra/bundling.ts leaves out (never loaded on Lambda) stay named too.
      const neverLoaded = (imported: { path: string; kind: string }) =>
        (LAMBDA_BUNDLING.external as readonly string[]).includes(imported.path);
      const outside = output!.imports.filter(
        (imported) => !(imported.external && (builtin(imported.path) || neverLoaded(imported))),
      );
      expect(outside, handler).toEqual([]);
      const code = readFileSync(bundleFile(dir, handler), 'utf8');
      // The ESM banner of infra/bundling.ts, so that CommonJS dependencies can still `require`.
      expect(code, handler).toMatch(/^import ?\{ ?createRequire as __createRequire ?\}/);
    }
  });

  it('answer through the local server: the public health route and the $default fallback', async () => {
    const health = await call('GET', '/v1/health');
    expect(health.status).toBe(200);
    expect(health.body.ok).toBe(true);
    const unknown = await call('GET', '/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe('route_not_found');
  });
});

describe('npm start -- --bundles', () => {
  /** `npm start -- <args>` against the run's DynamoDB Local, so that only the server's own checks can fail. */
  const start = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', ...args], {
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
        TABLE_NAME: inject('tableName'),
        PORT: '0',
        NODE_NO_WARNINGS: '1',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });

  it('refuses a directory without the bundles instead of serving the sources', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-bundles-'));
    try {
      const result = start(['--bundles', empty]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`--bundles ${empty}: no bundle for system/health`);
      expect(result.stdout).not.toContain('listening');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses an argument it does not know', () => {
    const result = start(['--bundle']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Unknown argument --bundle');
  });
});
