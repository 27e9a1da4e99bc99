/**
 * A workspace's audit log in the console, at a desktop (1280 px) and a phone (390 px) width, in
 * headless Chromium against the local server: reached from the workspace navigation, empty with a
 * word on what will appear, then the writes of a session and an API key listed newest first,
 * filtered by actor kind and by action, and paged.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createApiKey, createProfile, signUp, type SignedUp } from '../support/api.js';
import { auditLog } from '../support/audit.js';
import { waitFor } from '../support/webhooks.js';
import { DESKTOP, launchBrowser, PHONE, type Browser } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const consoleUrl = () => `${inject('baseUrl')}/console`;
/** More writes than one page shows. */
const POSTS = 21;

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('the audit log on a %s', (_width, viewport) => {
  let owner: SignedUp;
  let page: Page;
  const pageErrors: string[] = [];
  const rows = () => page.locator('main tbody tr');

  /** Applies the filters until the list shows `count` rows (entries are listed within 2 s of their write). */
  async function applyUntil(count: number) {
    for (let tries = 0; tries < 50 && (await rows().count()) !== count; tries++) {
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForTimeout(200);
    }
    expect(await rows().count()).toBe(count);
  }

  beforeAll(async () => {
    owner = await signUp('Audit Owner');
    page = await (await browser.newContext(viewport)).newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(consoleUrl());
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
  });

  it('opens from the workspace navigation, empty, saying what will appear', async () => {
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    expect(await page.locator('main .empty').textContent()).toContain(
      'Nothing yet. Each change made in this workspace',
    );
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
  });

  it("lists a session's and an API key's writes newest first, filters them by actor and action, and pages", async () => {
    const profile = await createProfile(owner.token);
    const { key } = await createApiKey(owner.token, owner.workspace.id, ['posts:write'], [profile.id]);
    for (let i = 0; i < POSTS; i++)
      expect(
        (await call('POST', '/v1/posts', { token: key, profileId: profile.id, body: { body: `post ${i}` } })).status,
      ).toBe(201);

    // The profile and the key by the session, the posts by the key: a page of 20, the rest older.
    await waitFor('every write listed', async () =>
      (await auditLog(owner.token, owner.workspace.id)).length === POSTS + 2 ? true : undefined,
    );
    await applyUntil(20);
    expect(await rows().first().textContent()).toContain('createPost');
    await page.getByRole('button', { name: 'Older →' }).click();
    await page.locator('main tbody tr', { hasText: 'createApiKey' }).waitFor();
    await expect.poll(() => rows().count()).toBe(POSTS + 2 - 20);
    await page.getByRole('button', { name: '← Newer' }).click();
    await page.locator('main tbody tr').nth(19).waitFor();

    await page.getByLabel('Actor').selectOption('session');
    await applyUntil(2);
    expect(await rows().allTextContents()).toEqual([
      expect.stringContaining('createApiKey'),
      expect.stringContaining('createProfile'),
    ]);
    await page.getByLabel('Actor').selectOption('');
    await page.getByLabel('Action').fill('createProfile');
    await applyUntil(1);
    expect(await rows().first().textContent()).toContain(profile.id);

    await page.getByLabel('Action').fill('deleteComment');
    await applyUntil(0);
    expect(await page.locator('main .empty').textContent()).toContain('No entries match these filters');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
    expect(pageErrors).toEqual([]);
  });
});
