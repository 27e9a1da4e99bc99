/**
 * Each webhook function carries only the SDKs it uses, checked on the real import graph (esbuild's
 * metafile of the Lambda bundles, built as the CDK stack builds them). The source-level import
 * rules are in test/unit/house-rules.test.ts.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LAMBDA_BUNDLING } from '../../infra/bundling.js';

async function bundledInputs(entry: string): Promise<string[]> {
  const result = await build({
    ...LAMBDA_BUNDLING,
    entryPoints: [entry],
    write: false,
    outdir: 'out',
    sourcemap: false,
    minify: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

const carries = (inputs: string[], pkg: string) => inputs.some((path) => path.includes(`node_modules/${pkg}/`));

describe('webhooks wing', () => {
  it('bundles only the SQS SDK into the manual retry and recovery routes, the fan-out and the sweeper; the sender has SQS and Scheduler', async () => {
    for (const entry of [
      'functions/webhooks/retry-webhook-delivery.ts',
      'functions/webhooks/recover-webhook-deliveries.ts',
      'functions/webhook-pipeline/fan-out.ts',
      'functions/webhook-pipeline/sweep-deliveries.ts',
    ]) {
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
});
