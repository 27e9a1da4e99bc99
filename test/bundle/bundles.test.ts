import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, inject, it } from 'vitest';
import { LAMBDA_BUNDLING } from '../../infra/bundling.js';
import { bundleFile, httpHandlerModules, MCP_HANDLER, METAFILE } from '../../infra/local/handler-bundles.js';
import { toolHandlers } from '../../functions/mcp/tool-handlers.js';
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
    // `node:` names are Node's own even where this Node lacks them (node:sqlite: Node 22, not 20).
    const builtin = (path: string) => isBuiltin(path) || path.startsWith('node:');
    // undici's files that infra/bundling.ts leaves out (never loaded on Lambda) stay named too.
    const neverLoaded = (path: string) => (LAMBDA_BUNDLING.external as readonly string[]).includes(path);
    /** The files of a bundle; for the MCP function's split bundle, its entry and its chunks beside it. */
    const filesOf = (handler: string) => {
      const entry = relative(process.cwd(), bundleFile(dir, handler));
      if (handler !== MCP_HANDLER) return [entry];
      const folder = relative(process.cwd(), join(dir, MCP_HANDLER));
      return [entry, ...[...outputs.keys()].filter((file) => file.startsWith(`${folder}/chunks/`))];
    };
    for (const handler of handlers) {
      const files = filesOf(handler);
      const output = outputs.get(files[0]!);
      expect(output, handler).toBeDefined();
      expect(output!.entryPoint, handler).toMatch(new RegExp(`functions/${handler}\\.ts$`));
      for (const file of files) {
        // Everything else (the AWS SDK included, see infra/lambda-defaults.ts) is inside the bundle.
        const outside = outputs
          .get(file)!
          .imports.filter(
            (imported) =>
              !(imported.external
                ? builtin(imported.path) || neverLoaded(imported.path)
                : files.includes(imported.path)),
          );
        expect(outside, file).toEqual([]);
        const code = readFileSync(file, 'utf8');
        // The ESM banner of infra/bundling.ts, so that CommonJS dependencies can still `require`.
        expect(code, file).toMatch(/^import ?\{ ?createRequire as __createRequire ?\}/);
      }
    }
  });

  it("split the MCP function: a tool route's handler is in a chunk the entry loads only when called", () => {
    const dir = inject('bundlesDir');
    const meta = JSON.parse(readFileSync(join(dir, METAFILE), 'utf8')) as Metafile;
    const entry = relative(process.cwd(), bundleFile(dir, MCP_HANDLER));
    const imports = meta.outputs[entry]!.imports;
    const lazy = imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path);
    expect(lazy.length).toBe(Object.keys(toolHandlers).length);
    // posts/get-post's own bundle has the same entry point: the chunk is the one in the MCP folder.
    const getPost = Object.entries(meta.outputs).find(
      ([file, output]) =>
        file.includes(`/${MCP_HANDLER}/chunks/`) && output.entryPoint?.endsWith('functions/posts/get-post.ts'),
    );
    expect(getPost, 'posts/get-post has a chunk of its own').toBeDefined();
    expect(lazy).toContain(getPost![0]);
    expect(imports.filter((imported) => imported.kind === 'import-statement').map((i) => i.path)).not.toContain(
      getPost![0],
    );
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
