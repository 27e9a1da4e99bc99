/**
 * The console's Security page in headless Chromium against the local server: a person turns on
 * the second factor by scanning (here: reading) the secret the page shows, sees the recovery
 * codes once, logs out and back in with a code, then ends a session they do not recognise.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, signUp, type SignedUp } from '../support/api.js';
import { codeAt, previousStepCode } from '../support/second-factor.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
let ann: SignedUp;
const pageErrors: string[] = [];

beforeAll(async () => {
  ann = await signUp('Ann Secure');
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

const consoleUrl = () => `${inject('baseUrl')}/console`;

async function logIn() {
  await page.getByLabel('Email').fill(ann.email);
  await page.getByLabel('Password').fill(ann.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('the Security page', () => {
  let secret = '';

  it('turns the second factor on from the QR code and secret, and shows the recovery codes once', async () => {
    await page.goto(consoleUrl());
    await logIn();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await page.getByText('Off.').waitFor();

    await page.getByLabel('Password').fill(ann.password);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = page.getByRole('img', { name: 'QR code of the authenticator secret' });
    await qr.waitFor();
    expect(await qr.locator('path').getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    secret = await page.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    await page.getByLabel('Code from the app').fill(await previousStepCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByText('On: 10 recovery codes left.').waitFor();
    await expect(codes.count()).resolves.toBe(0);
  });

  it('asks for the code at the next log-in, and lets in with it', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn();
    const code = page.getByLabel('Code from your authenticator app, or a recovery code');
    await code.waitFor();
    await code.fill(codeAt(secret));
    await page.getByRole('button', { name: 'Log in' }).click();
    // Back where the person was when they logged out.
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await page.getByText('On: 10 recovery codes left.').waitFor();
  });

  it('lists the sessions with how each logged in, and ends another one', async () => {
    const other = await call('POST', '/v1/sessions', {
      body: { email: ann.email, password: ann.password, totp_code: codeAt(secret, 1) },
      headers: { 'user-agent': 'Unknown Device/9.9' },
    });
    expect(other.status).toBe(201);
    await page.reload();
    const current = page.getByRole('row', { name: /This session/ });
    await current.waitFor();
    await expect(current.textContent()).resolves.toContain('Password + app code');

    const stranger = page.getByRole('row', { name: /Unknown Device\/9\.9/ });
    await stranger.getByRole('button', { name: 'End' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
    await page.getByText('The session is ended').waitFor();
    await stranger.waitFor({ state: 'detached' });
    expect((await call('GET', '/v1/me', { token: other.body.data.session.token })).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
