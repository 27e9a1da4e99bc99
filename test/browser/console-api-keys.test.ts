/**
 * A workspace's API keys in the console, at a desktop (1280 px) and a phone (390 px) width, in
 * headless Chromium against the local server: required fields marked before anything is sent, a
 * key created and shown once, used over HTTP (it works), revoked after a confirmation (it stops
 * working), and a member told why the page is not theirs. `npm run screenshots` saves the docs'
 * pictures from here.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createProfile, signUp, type SignedUp } from '../support/api.js';
import { DESKTOP, launchBrowser, PHONE, type Browser } from './browser.js';

const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOTS;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  if (SCREENSHOT_DIR) mkdirSync(SCREENSHOT_DIR, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

const consoleUrl = () => `${inject('baseUrl')}/console`;

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('API keys on a %s', (width, viewport) => {
  let owner: SignedUp;
  let profile: { id: string; username: string };
  let page: Page;
  let key: string;
  const pageErrors: string[] = [];

  /** A browser of its own, logged in as `user` from the form. */
  async function logIn(user: SignedUp): Promise<Page> {
    const opened = await (await browser.newContext(viewport)).newPage();
    opened.setDefaultTimeout(10_000);
    opened.on('pageerror', (error) => pageErrors.push(error.message));
    await opened.goto(consoleUrl());
    await opened.getByLabel('Email').fill(user.email);
    await opened.getByLabel('Password').fill(user.password);
    await opened.getByRole('button', { name: 'Log in' }).click();
    await opened.getByRole('heading', { name: 'Endpoints' }).waitFor();
    return opened;
  }

  const fitsTheScreen = async () =>
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);

  async function screenshot(name: string) {
    const file = `${width === 'phone' ? 'mobile-' : ''}${name}`;
    const pageHeight = await page.evaluate<number>('document.documentElement.scrollHeight');
    const clip = { x: 0, y: 0, width: viewport.width, height: Math.min(pageHeight, Math.round(viewport.height * 1.4)) };
    const image = await page.screenshot({
      fullPage: true,
      clip,
      ...(SCREENSHOT_DIR ? { path: `${SCREENSHOT_DIR}/${file}.png` } : {}),
    });
    expect(image.length).toBeGreaterThan(1000);
  }

  beforeAll(async () => {
    owner = await signUp('Key Owner');
    profile = await createProfile(owner.token);
    page = await logIn(owner);
  });

  it('opens from the workspace navigation, empty, and marks the required fields before sending', async () => {
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(await page.locator('main .empty').textContent()).toContain('No API key yet');

    await page.getByRole('button', { name: 'Create API key' }).click();
    expect(await page.locator('input[name=name]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#name-problem').textContent()).toBe('This is required.');
    expect(await page.locator('fieldset[name=scopes]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#scopes-problem').textContent()).toBe('Choose at least one.');
    // Nothing was sent: no refusal from the API.
    expect(await page.getByRole('alert').count()).toBe(0);
    // Each scope reads as a sentence, the consent page's.
    expect(await page.getByRole('checkbox', { name: /posts:write$/ }).count()).toBe(1);
    expect(await page.locator('fieldset[name=scopes] label', { hasText: 'posts:write' }).textContent()).toContain(
      "Create, change and delete the chosen profiles' posts",
    );
    await fitsTheScreen();
  });

  it('creates a key, shown once with its copy button, that works over HTTP', async () => {
    await page.getByRole('textbox', { name: 'Name' }).fill('Publishing bot');
    await page.getByRole('checkbox', { name: /posts:write$/ }).check();
    await page.getByRole('checkbox', { name: new RegExp(`@${profile.username}`) }).check();
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('heading', { name: 'Publishing bot is created: its key' }).waitFor();
    key = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(key).toMatch(/^sk_/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();

    const row = page.locator('tbody tr', { hasText: 'Publishing bot' });
    await row.waitFor();
    const prefix = (await row.locator('td[data-label="Prefix"]').textContent())!.replace(/…$/, '');
    expect(key.startsWith(prefix)).toBe(true);
    expect(await row.locator('td[data-label="Scopes"]').textContent()).toBe('posts:write');
    expect(await row.locator('td[data-label="Profiles"]').textContent()).toBe(`@${profile.username}`);
    expect(await page.locator('main .empty').count()).toBe(0);
    await fitsTheScreen();
    await screenshot('api-key-created');

    const posted = await call('POST', '/v1/posts', { token: key, profileId: profile.id, body: { body: 'Hello' } });
    expect(posted.status).toBe(201);

    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.getByLabel('API key', { exact: true }).count()).toBe(0);
  });

  it('revokes the key after a confirmation, and it stops working', async () => {
    const row = page.locator('tbody tr', { hasText: 'Publishing bot' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Publishing bot?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Publishing bot is revoked' }).waitFor();
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);

    const refused = await call('POST', '/v1/posts', { token: key, profileId: profile.id, body: { body: 'Again' } });
    expect(refused.status).toBe(401);
  });

  it('tells a member of the workspace why the page is not theirs', async () => {
    const member = await signUp('Key Member');
    const added = await call('POST', `/v1/workspaces/${owner.workspace.id}/members`, {
      token: owner.token,
      body: { email: member.email, role: 'member' },
    });
    expect(added.status).toBe(201);
    const memberPage = await logIn(member);
    await memberPage.goto(`${consoleUrl()}#/w/${owner.workspace.id}/api-keys`);
    await memberPage.getByRole('heading', { name: 'No access to this workspace' }).waitFor();
    expect(await memberPage.locator('main').textContent()).toContain(
      'API keys and connected apps are managed by its owners and admins, and you are a member of this one',
    );
    await memberPage.context().close();
    expect(pageErrors).toEqual([]);
  });
});
