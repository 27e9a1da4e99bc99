/**
 * The mail a person gets, followed in headless Chromium against the local server: sign up, read the
 * verification mail on the local Mail page, follow its link, verified; forgot the password, read
 * the reset mail, follow its link, set a new password, log in with it.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Page } from 'playwright-core';
import { call, unique } from '../support/api.js';
import { waitForMail } from '../support/mail.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

const base = () => inject('baseUrl');

/** Opens the Mail page for `to` and the newest mail titled `subject` there; returns its link. */
async function openMail(to: string, subject: string): Promise<string> {
  await page.goto(`${base()}/console/mail?to=${encodeURIComponent(to)}`);
  await page.getByRole('heading', { name: 'Mail', level: 1 }).waitFor();
  await page.getByRole('button', { name: subject }).first().click();
  const opened = page.getByRole('article', { name: 'Open mail' });
  await opened.getByRole('heading', { name: subject }).waitFor();
  return (await opened.getByRole('link').first().getAttribute('href'))!;
}

describe('mail in the console', () => {
  it('shows the verification mail of a sign-up, whose link verifies the address', async () => {
    const email = `${unique('browser')}@example.com`;
    expect((await call('POST', '/v1/users', { body: { email, password: PASSWORD, name: 'Ada' } })).status).toBe(201);
    await waitForMail(email);

    const link = await openMail(email, 'Verify your email address');
    expect(link).toContain('/console/verify-email?token=ev_');
    await page.getByRole('article', { name: 'Open mail' }).getByRole('link').first().click();
    await page.waitForURL(/\/console\/verify-email\?token=/);
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain(`Your address ${email} is verified`);

    const session = await call('POST', '/v1/sessions', { body: { email, password: PASSWORD } });
    expect(session.body.data.user.email_verified).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('resets a forgotten password from the login page to a log-in with the new one', async () => {
    const email = `${unique('forgot')}@example.com`;
    expect((await call('POST', '/v1/users', { body: { email, password: PASSWORD, name: 'Bea' } })).status).toBe(201);

    await page.goto(`${base()}/console`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/console\/reset-password$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('is on its way');

    await waitForMail(email, 2);
    const link = await openMail(email, 'Reset your password');
    expect(link).toContain('/console/reset-password?token=pr_');
    await page.goto(link);
    await page.getByLabel('New password').fill('a new strong password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your password is changed');

    await page.getByRole('link', { name: 'Log in with the new password' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a new strong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();

    // Served locally, the top bar leads to the person's own local mailbox.
    await page.getByRole('link', { name: 'Mail', exact: true }).click();
    await page.waitForURL(/\/console\/mail\?to=/);
    await page.getByRole('button', { name: 'Reset your password' }).first().waitFor();
    expect(pageErrors).toEqual([]);
  });
});
