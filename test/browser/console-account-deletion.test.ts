/**
 * The console's Account page in headless Chromium against the local server: a person schedules
 * the account's deletion (the profile reads 404 at once), cancels it (the profile is back), then
 * deletes it now and is signed out; the session no longer works.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, createProfile, signUp, type SignedUp } from '../support/api.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
let dee: SignedUp;
let profileId: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  dee = await signUp('Dee Parting');
  profileId = (await createProfile(dee.token)).id;
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

const profileStatus = async () => (await call('GET', `/v1/profiles/${profileId}`)).status;

describe('the Account page', () => {
  it('schedules the deletion with the grace period and cancels it', async () => {
    await page.goto(`${inject('baseUrl')}/console`);
    await page.getByLabel('Email').fill(dee.email);
    await page.getByLabel('Password').fill(dee.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await page.getByRole('link', { name: 'Account', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();

    const section = page.getByRole('region', { name: 'Deletion' });
    await section.getByLabel('Password').fill('not my password');
    await section.getByRole('button', { name: 'Delete my account in 30 days' }).click();
    await section.getByText('The deletion did not go through.').waitFor();
    expect(await profileStatus()).toBe(200);

    await section.getByLabel('Password').fill(dee.password);
    await section.getByRole('button', { name: 'Delete my account in 30 days' }).click();
    await section.getByText('Your account is scheduled for deletion on').waitFor();
    expect(await profileStatus()).toBe(404);

    await section.getByRole('button', { name: 'Cancel the deletion' }).click();
    await section.getByText('The deletion is cancelled').waitFor();
    expect(await profileStatus()).toBe(200);
    expect(pageErrors).toEqual([]);
  });

  it('deletes the account now and signs out', async () => {
    const section = page.getByRole('region', { name: 'Deletion' });
    await section.getByLabel('Password').fill(dee.password);
    await section.getByLabel('Erase now, without the 30-day grace period').check();
    await section.getByRole('button', { name: 'Delete my account now' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect((await call('GET', '/v1/me', { token: dee.token })).status).toBe(401);
    expect(pageErrors).toEqual([]);
  });
});
