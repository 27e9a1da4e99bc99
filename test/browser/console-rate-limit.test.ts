/**
 * A person locked out by too many log-in attempts reads when to try again, in words, and not the
 * hint written for programs (Retry-After, RateLimit-Policy). A server of its own with a small
 * per-email log-in limit (and its own table), at a desktop and a phone width.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../infra/local/dynamodb-local.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { unique } from '../support/api.js';
import { DESKTOP, launchBrowser, PHONE, type Browser } from './browser.js';

let server: LocalServer;
let browser: Browser;

beforeAll(async () => {
  const tableName = 'social-network-console-rate-limit-test';
  await ensureTable(inject('dynamodbEndpoint'), tableName);
  server = await startLocalServer({
    DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
    TABLE_NAME: tableName,
    PASSWORD_SCRYPT_LOG2_N: '12',
    // A day-long window, so that none rolls over mid-test (windows follow the clock: what is left is hours, or minutes or seconds just before midnight UTC).
    RATE_LIMIT_LOGIN_EMAIL: '2/86400',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('too many log-in attempts on a %s', (_width, viewport) => {
  it('says when to try again (in hours, minutes or seconds), without the hint for programs', async () => {
    const page = await (await browser.newContext(viewport)).newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.baseUrl}/console`);
    await page.getByLabel('Email').fill(`${unique('locked')}@example.com`);
    await page.getByLabel('Password').fill('not the password');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      if (attempt < 3) await expect.poll(() => page.getByRole('alert').textContent()).toContain('invalid_credentials');
    }
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('rate_limited');
    const text = (await alert.textContent())!;
    expect(text).toMatch(/Too many attempts in a short time\. Try again in (about \d+ (hours|minutes)|\d+ seconds)\./);
    expect(text).not.toMatch(/Retry-After|RateLimit/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
    expect(pageErrors).toEqual([]);
  });
});
