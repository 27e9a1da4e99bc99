import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitApiFunction } from '../../infra/lambda-defaults.js';
import { toolHandlers } from '../../functions/mcp/tool-handlers.js';

/**
 * The MCP function's asset exactly as `cdk deploy` uploads it: split by esbuild (infra/bundling.ts,
 * MCP_BUNDLING) into `index.mjs` and its `chunks/`, every file of which loads in a fresh Node.
 */
describe("the MCP function's split asset", () => {
  let outdir: string;
  let asset: string;
  let handler: string;
  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'mcp-bundle-'));
    // Bundling on (no `aws:cdk:bundling-stacks` context), for this one function.
    const app = new App({ outdir });
    const stack = new Stack(app, 'McpBundle');
    const fn = splitApiFunction(stack, 'Mcp', 'functions/mcp/handler.ts', { TABLE_NAME: 'unused' });
    const properties = Template.fromStack(stack).toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as never)]
      .Properties as { Code: { S3Key: string }; Handler: string };
    asset = join(outdir, `asset.${properties.Code.S3Key.replace(/\.zip$/, '')}`);
    handler = properties.Handler;
  }, 120_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('is index.mjs (the handler Lambda calls) with its source map, and a chunk per tool route beside it', () => {
    expect(handler).toBe('index.handler');
    expect(existsSync(join(asset, 'index.mjs'))).toBe(true);
    expect(existsSync(join(asset, 'index.mjs.map'))).toBe(true);
    const chunks = readdirSync(join(asset, 'chunks')).filter((file) => file.endsWith('.mjs'));
    for (const module of Object.keys(toolHandlers)) {
      const name = module.split('/').pop()!;
      expect(
        chunks.some((chunk) => chunk.startsWith(`${name}-`)),
        module,
      ).toBe(true);
    }
    const entry = readFileSync(join(asset, 'index.mjs'), 'utf8');
    expect(entry).toMatch(/import\("\.\/chunks\/get-post-[A-Z0-9]+\.mjs"\)/);
  });

  it('loads in a fresh Node: the entry exports the handler, and every chunk imports', () => {
    const chunks = readdirSync(join(asset, 'chunks')).filter((file) => file.endsWith('.mjs'));
    const script = `
      const entry = await import('./index.mjs');
      if (typeof entry.handler !== 'function') throw new Error('no handler');
      for (const chunk of ${JSON.stringify(chunks)}) await import('./chunks/' + chunk);
      console.log('loaded ' + ${chunks.length});`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: asset,
      env: { ...process.env, TABLE_NAME: 'unused', AWS_REGION: 'us-east-1', NODE_NO_WARNINGS: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(`loaded ${chunks.length}`);
  });
});
