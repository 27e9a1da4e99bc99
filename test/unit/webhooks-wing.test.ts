/**
 * The webhooks wing's import rules, checked on the real import graph (esbuild's metafile of the
 * Lambda bundles, built as the CDK stack builds them): each function carries only the SDKs it
 * uses, and the delivery engine sits below HTTP with no cycle between engine and ports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLING } from '../../infra/bundling.js';

async function bundledInputs(entry: string): Promise<string[]> {
  const result = await build({ ...LAMBDA_BUNDLING, entryPoints: [entry], write: false, outdir: 'out', sourcemap: false, minify: false, metafile: true, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

const carries = (inputs: string[], pkg: string) => inputs.some((path) => path.includes(`node_modules/${pkg}/`));

function importsOf(dir: string): { file: string; from: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map((match) => ({ file: join(dir, file), from: match[1]! })),
    );
}

describe('webhooks wing', () => {
  it('bundles only the SQS SDK into the manual retry route, the fan-out and the sweeper; the sender has SQS and Scheduler', async () => {
    for (const entry of ['functions/webhooks/retry-webhook-delivery.ts', 'functions/webhook-pipeline/fan-out.ts', 'functions/webhook-pipeline/sweep-deliveries.ts']) {
      const inputs = await bundledInputs(entry);
      expect(carries(inputs, '@aws-sdk/client-sqs'), entry).toBe(true);
      expect(carries(inputs, '@aws-sdk/client-scheduler'), entry).toBe(false);
    }
    const sender = await bundledInputs('functions/webhook-pipeline/send-delivery.ts');
    expect(carries(sender, '@aws-sdk/client-sqs')).toBe(true);
    expect(carries(sender, '@aws-sdk/client-scheduler')).toBe(true);
    // The test-event route only writes an outbox event: no queue SDK at all.
    const testEvent = await bundledInputs('functions/webhooks/test-webhook-endpoint.ts');
    expect(carries(testEvent, '@aws-sdk/client-sqs')).toBe(false);
    expect(carries(testEvent, '@aws-sdk/client-scheduler')).toBe(false);
  }, 60_000);

  it('keeps the delivery engine below HTTP, apart from the local runtime, and ports never import the engine', () => {
    const engine = importsOf('shared/webhooks');
    expect(engine.length).toBeGreaterThan(0);
    expect(engine.filter(({ from }) => /\/http\/|functions\/|infra\//.test(from))).toEqual([]);
    const ports = importsOf('shared/ports');
    expect(ports.length).toBeGreaterThan(0);
    expect(ports.filter(({ from }) => /webhooks\/|\/http\/|functions\/|infra\//.test(from))).toEqual([]);
  });

  it('imports each AWS SDK only in its adapter under shared/ports/aws', () => {
    const sdkImports = [...importsOf('shared'), ...importsOf('functions')].filter(({ from }) => /^@aws-sdk\/client-(sqs|scheduler)$/.test(from));
    expect(sdkImports.length).toBeGreaterThan(0);
    expect(sdkImports.filter(({ file }) => !file.startsWith(join('shared', 'ports', 'aws')))).toEqual([]);
  });
});
