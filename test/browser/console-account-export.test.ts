/**
 * The console's Account page in headless Chromium against the local server: a person asks for an
 * export of their data, watches it go from pending to ready, and downloads the archive from the
 * page's link (a ZIP with the account in it); the mail that says it is ready links to the page.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signUp, type SignedUp } from '../support/api.js';
import { waitForMail } from '../support/mail.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
let eve: SignedUp;
const pageErrors: string[] = [];

beforeAll(async () => {
  eve = await signUp('Eve Exporter');
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

describe('the Account page', () => {
  it('asks for an export, shows it pending then ready, and downloads the archive', async () => {
    await page.goto(`${inject('baseUrl')}/console`);
    await page.getByLabel('Email').fill(eve.email);
    await page.getByLabel('Password').fill(eve.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Export your data' }).waitFor();

    await page.getByRole('button', { name: 'Export my data' }).click();
    const download = page.getByRole('link', { name: 'Download your archive' });
    await download.waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Ask for a new export' }).isEnabled()).toBe(true);

    const href = (await download.getAttribute('href'))!;
    expect(href).toContain('/local/exports/');
    const archive = unzipSync(new Uint8Array(await (await fetch(href)).arrayBuffer()));
    expect(JSON.parse(strFromU8(archive['account.json']!)).user.email).toBe(eve.email);

    const mails = await waitForMail(eve.email, 2);
    const ready = mails.find((m) => m.subject === 'Your data export is ready')!;
    const link = /https?:\/\/\S+#\/account/.exec(ready.text)![0];
    await page.goto(link);
    await page.getByRole('heading', { name: 'Export your data' }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
