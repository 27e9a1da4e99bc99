/**
 * Passkeys in the console, in headless Chromium with a virtual authenticator (CDP WebAuthn: a
 * CTAP2 platform authenticator with resident keys and user verification) against the local
 * server at its passkey origin, http://localhost:<port>: a passkey added on the Security page
 * signs the user in again after logging out.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, signUp, type SignedUp } from '../support/api.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
let user: SignedUp;
const pageErrors: string[] = [];

/** The relying party ID is `localhost`: the console must be opened there, not at 127.0.0.1. */
const consoleUrl = () => `http://localhost:${new URL(inject('baseUrl')).port}/console`;

beforeAll(async () => {
  user = await signUp('Passkey Person');
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
});
afterAll(async () => {
  await browser?.close();
});

const passkeysOf = async () =>
  (await call('GET', '/v1/me/passkeys', { token: user.token })).body.data.items as {
    name: string;
    last_used_at: string | null;
  }[];

describe('passkeys in the console', () => {
  it('adds a passkey on the Security page, then signs in with it after logging out', async () => {
    await page.goto(consoleUrl());
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await page.getByText('You have no passkey yet.').waitFor();
    await page.getByLabel('Passkey name').fill('Virtual laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey “Virtual laptop” added').waitFor();
    await page.getByRole('cell', { name: 'Virtual laptop' }).waitFor();
    expect(await passkeysOf()).toEqual([expect.objectContaining({ name: 'Virtual laptop', last_used_at: null })]);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('You are logged out.').waitFor();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('link', { name: 'Security' }).waitFor();
    expect((await passkeysOf())[0]!.last_used_at).toEqual(expect.any(String));

    // The session the passkey made is the user's: the Security page lists their passkey.
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('cell', { name: 'Virtual laptop' }).waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('deletes the passkey after asking, and then the passkey no longer signs in', async () => {
    await page
      .getByRole('row', { name: /Virtual laptop/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Passkey “Virtual laptop” deleted').waitFor();
    await page.getByText('You have no passkey yet.').waitFor();
    expect(await passkeysOf()).toEqual([]);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    // The authenticator still holds the credential; the service no longer knows it.
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not registered here/);
    expect(pageErrors).toEqual([]);
  });
});
