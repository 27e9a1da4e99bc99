/**
 * The Chromium that the browser tests drive: `CHROMIUM_PATH` when set, else Debian's
 * `/usr/bin/chromium` when installed, else the build that the npm package `@sparticuz/chromium`
 * ships inside its tarball (inflated once into the temp dir; later runs reuse it). So `npm ci &&
 * npm test` needs no browser on the machine and downloads none. Resolved once in the global
 * setup: test files run in parallel and must not inflate it side by side.
 */
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

export default async function setup(project: TestProject) {
  project.provide('chromiumPath', await chromiumPath());
}
