/**
 * A new person's first minutes in the console, at a desktop (1280 px) and a phone (390 px) width,
 * in headless Chromium against the local server: sign up, a profile, an endpoint (required fields
 * checked in the browser), a session that new tabs share and a log-out that ends it in all of
 * them, the consent page in words, Connected apps, and Moderation with its workspace navigation.
 * `npm run screenshots` saves the docs' pictures of these pages from here.
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, unique } from '../support/api.js';
import { moderatorCommand } from '../support/moderation.js';
import { approvedCode, exchange, mcpResource, pkcePair, registerClient } from '../support/oauth.js';
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
const box = async (page: Page, locator: ReturnType<Page['locator']>) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`not on screen: ${locator.toString()}`);
  return found;
};

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('the first minutes on a %s', (width, viewport) => {
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const person = { name: 'Ada Lovelace', email: `${unique('ada')}@example.com`, password: 'a long password' };
  const username = unique('ada').slice(0, 30);

  beforeAll(async () => {
    context = await browser.newContext(viewport);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  const fitsTheScreen = async () =>
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);

  /** The top of the page, saved under docs/screenshots when asked for (a `mobile-` prefix on the phone). */
  async function screenshot(name: string) {
    const pageHeight = await page.evaluate<number>('document.documentElement.scrollHeight');
    const clip = { x: 0, y: 0, width: viewport.width, height: Math.min(pageHeight, Math.round(viewport.height * 1.4)) };
    const file = `${width === 'phone' ? 'mobile-' : ''}${name}`;
    const image = await page.screenshot({
      fullPage: true,
      clip,
      ...(SCREENSHOT_DIR ? { path: `${SCREENSHOT_DIR}/${file}.png` } : {}),
    });
    expect(image.length).toBeGreaterThan(1000);
  }

  it('signs up from the login page, checking the required fields first, into the new workspace', async () => {
    await page.goto(consoleUrl());
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();

    // Nothing filled in: the browser marks each required field, and nothing is sent.
    await page.getByRole('button', { name: 'Create account' }).click();
    for (const field of ['name', 'email', 'password']) {
      expect(await page.locator(`input[name=${field}]`).getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${field}-problem`).textContent()).toBe('This is required.');
    }
    expect(await page.getByRole('alert').count()).toBe(0);
    await fitsTheScreen();
    await screenshot('signup-required');

    await page.getByRole('textbox', { name: 'Your name' }).fill(person.name);
    await page.getByRole('textbox', { name: 'Email' }).fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    const workspace = page.getByRole('navigation', { name: 'Workspace' });
    for (const section of ['Profiles', 'Endpoints', 'Activity', 'Connected apps'])
      await workspace.getByRole('link', { name: section }).waitFor();
    expect(await page.getByRole('link', { name: 'Account console' }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Account' }).textContent()).toContain(person.email);
    // The empty list says what an endpoint is and what comes first.
    const empty = page.locator('main .empty');
    expect(await empty.textContent()).toContain('No endpoints yet');
    await empty.getByRole('link', { name: 'create a profile' }).click();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
  });

  it('creates a profile, then an endpoint: required fields checked in the browser, the refused one marked', async () => {
    await page.getByRole('textbox', { name: 'Username' }).fill(username);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(person.name);
    await page.getByRole('textbox', { name: 'Call name' }).fill('Ada');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `@${username.toLowerCase()} is created.` })
      .waitFor();
    await fitsTheScreen();
    await screenshot('profiles');

    await page.getByRole('link', { name: 'Endpoints' }).click();
    await page.getByRole('link', { name: 'New endpoint' }).first().click();
    await page.getByRole('heading', { name: 'New endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    for (const field of ['name', 'url'])
      expect(await page.locator(`input[name=${field}]`).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').count()).toBe(0);

    // The API refuses a plain-http address: its rule shows under the URL field, in words.
    await page.getByRole('textbox', { name: 'Name' }).fill('Orders');
    await page.getByRole('textbox', { name: 'URL' }).fill('ftp://hooks.example.com/orders');
    await page.getByRole('checkbox', { name: /^profile\.followed/ }).check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.locator('input[name=name]').getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('input[name=url]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#url-problem').textContent()).toMatch(/^\S/);
    expect(await page.getByRole('alert').textContent()).not.toContain('body.');
    await fitsTheScreen();
    await screenshot('endpoint-refused');

    // (A hyphen is a break opportunity too; this address has none, so every line must end at a separator.)
    const url = 'https://hooks.example.com/integrations/socialnetwork/webhooks/orders/mentions?source=console';
    await page.getByRole('textbox', { name: 'URL' }).fill(url);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    // No filter is set: the empty list says what to do, not that filters match nothing.
    const none = page.locator('.deliveries .empty');
    expect(await none.textContent()).toContain('Send a test event');
    expect(await none.textContent()).not.toContain('filters');

    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.getByRole('link', { name: 'Endpoints' }).first().click();
    const cell = page.locator('td[data-label="URL"] .url');
    await cell.waitFor();
    // The address breaks only between its parts (after a /, a dot, ?, & or =), never inside one.
    const lines = await page.evaluate<number[]>(`(() => {
      const url = document.querySelector('td[data-label="URL"] .url');
      const linesOf = (node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      };
      return [linesOf(url), ...[...url.childNodes].filter((node) => node.nodeType === 3).map(linesOf)];
    })()`);
    const [whole, ...pieces] = lines;
    if (width === 'phone') expect(whole).toBeGreaterThan(1);
    expect(pieces.every((count) => count === 1)).toBe(true);
    await fitsTheScreen();
  });

  it('keeps the session in a new tab, and a log-out in one tab ends it in the other', async () => {
    const second = await context.newPage();
    await second.goto(`${consoleUrl()}#/`);
    await second.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await second.getByRole('button', { name: 'Log out' }).click();
    await second.getByText('You are logged out.').waitFor();
    await page.getByText('Your session has ended. Log in again.').waitFor();
    await second.close();
  });

  it('asks for consent in words: who asks, each scope in a sentence, the choices laid out', async () => {
    const appName = unique('Notes app');
    const redirectUri = 'http://127.0.0.1:9/callback';
    const clientId = await registerClient([redirectUri], appName);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: 'st4te',
      scope: 'posts:read posts:write notifications:read',
      resource: mcpResource(),
    });
    await page.goto(`${consoleUrl()}#/oauth/authorize?${query.toString()}`);
    // Signed out: the login page says an app is asking, and that nothing is shared yet.
    await page.getByRole('heading', { name: 'Log in to connect an app' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('nothing is shared before you approve');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.getByRole('heading', { name: `${appName} asks for access` }).waitFor();
    const scopes = page.getByRole('group', { name: 'What it may do' });
    expect(await scopes.textContent()).toContain("Read the chosen profiles' posts");
    expect(await scopes.textContent()).toContain("Create, change and delete the chosen profiles' posts");
    // A radio button is its own size, and its label sits right beside it.
    const choice = page.getByRole('group', { name: 'Workspace' }).locator('label.choice').first();
    const radio = await box(page, choice.locator('input[type=radio]'));
    const label = await box(page, choice.locator('span'));
    expect(radio.width).toBeLessThan(30);
    expect(label.x - (radio.x + radio.width)).toBeLessThan(20);
    expect(Math.abs(label.y - radio.y)).toBeLessThan(20);
    await fitsTheScreen();
    await screenshot('consent');
  });

  it('says on Connected apps how an app connects, and lists one with headers over their cells', async () => {
    const workspaceLink = page
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('link', { name: 'Connected apps' });
    await workspaceLink.click();
    await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
    expect(await page.locator('main .empty').textContent()).toContain('/mcp');

    const token = await page.evaluate<string>("localStorage.getItem('console.session')");
    const workspaceId = (await call('GET', '/v1/me', { token })).body.data.workspaces[0].id as string;
    const listed = await call('GET', `/v1/workspaces/${workspaceId}/webhook-endpoints`, { token });
    // An app connects when its approved code is exchanged for tokens.
    const approved = await approvedCode(token, {
      workspace_id: workspaceId,
      profile_ids: [listed.body.data.available_profiles[0].id as string],
      scopes: ['posts:read'],
    });
    expect((await exchange(approved)).status).toBe(200);
    await page.reload();
    await page.locator('table.responsive tbody tr').first().waitFor();
    if (width === 'desktop') {
      const align = "getComputedStyle(document.querySelector('table.responsive th')).textAlign";
      expect(await page.evaluate<string>(align)).toBe('left');
    }
    await screenshot('apps');
    await fitsTheScreen();
  });

  it('keeps the workspace navigation on Moderation, with Resolved beside Open', async () => {
    expect((await moderatorCommand('grant', person.email)).code).toBe(0);
    await page.reload();
    await page.getByRole('link', { name: 'Moderation' }).click();
    await page.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Endpoints' }).waitFor();
    const open = await box(page, page.getByRole('button', { name: 'Open' }));
    const resolved = await box(page, page.getByRole('button', { name: 'Resolved' }));
    expect(resolved.x - (open.x + open.width)).toBeLessThan(24);
    await fitsTheScreen();
  });

  it('ran without a script error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
