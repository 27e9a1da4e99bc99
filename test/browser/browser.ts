/**
 * Headless Chromium driven by playwright-core: nothing downloads a browser, nothing leaves the
 * machine. Which Chromium is resolved once per run by the global setup (test/support/chromium.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { inject } from 'vitest';

/** Keeps Chromium from calling outside hosts (there is no network beyond the registries). */
const OFFLINE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh profile (its own user data dir) per test file, so no state leaks between runs. */
export async function launchBrowser(): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: inject('chromiumPath'),
    headless: true,
    args: OFFLINE_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
