import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildHandlerBundles } from '../../infra/local/handler-bundles.js';
import { startTestStack } from '../support/global-setup.js';

declare module 'vitest' {
  export interface ProvidedContext {
    bundlesDir: string;
  }
}

/** The e2e stack of test/support/global-setup.ts, its HTTP routes served from the Lambda bundles. */
export default async function setup(project: TestProject) {
  const bundlesDir = mkdtempSync(join(tmpdir(), 'lambda-bundles-'));
  await buildHandlerBundles(bundlesDir);
  project.provide('bundlesDir', bundlesDir);
  const stop = await startTestStack(project, ['--bundles', bundlesDir]);
  return async () => {
    await stop();
    rmSync(bundlesDir, { recursive: true, force: true });
  };
}
