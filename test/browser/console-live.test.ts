/**
 * The console's Live page in headless Chromium against the local server: it opens the profile's
 * stream with a stream ticket (EventSource sends no header) and shows a message as it arrives.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sendMessage } from '../support/live.js';
import { actor, type Actor } from '../support/social.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
let reader: Actor;
let sender: Actor;
const pageErrors: string[] = [];
const streams: string[] = [];

beforeAll(async () => {
  [reader, sender] = await Promise.all([actor(), actor()]);
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('request', (request) => {
    if (request.url().includes('/v1/stream?')) streams.push(request.url());
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('the Live page', () => {
  it("shows the profile's events as they happen, over SSE with a stream ticket", async () => {
    await page.goto(`${inject('baseUrl')}/console`);
    await page.getByLabel('Email').fill(reader.user.email);
    await page.getByLabel('Password').fill(reader.user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await page.getByRole('link', { name: 'Live' }).click();
    await page.getByRole('heading', { name: 'Live' }).waitFor();
    await page.getByRole('status').getByText('Listening.').waitFor();

    await sendMessage(sender, reader, 'hello, live console');
    await page.getByText('Message: hello, live console').waitFor();
    await sendMessage(sender, reader, 'and another');
    await page.getByText('Message: and another').waitFor();
    expect(await page.getByRole('list', { name: 'Events' }).getByRole('listitem').count()).toBe(2);
    // Opened by a ticket, not a header (EventSource sends none).
    expect(streams.length).toBeGreaterThan(0);
    for (const url of streams) expect(new URL(url).searchParams.get('ticket')).toMatch(/^stk_/);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
