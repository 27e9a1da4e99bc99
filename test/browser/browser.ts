/**
 * Headless Chromium driven by playwright-core: nothing downloads a browser, nothing leaves the
 * machine. Which Chromium is resolved once per run by the global setup (test/support/chromium.ts).
 */
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

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface Browser {
  /** The test file's browser profile: its tabs share one console session, as a person's tabs do. */
  context: BrowserContext;
  /** Another person's browser (its own storage, so its own console session). */
  newContext(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** A fresh browser per test file, with nothing stored from any other run. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: inject('chromiumPath'), headless: true, args: OFFLINE_ARGS });
  const newContext = (viewport = DESKTOP) => browser.newContext({ viewport });
  return { context: await newContext(), newContext, close: () => browser.close() };
}
