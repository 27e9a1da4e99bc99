/**
 * The console's Moderation page in headless Chromium against the local server: a user becomes a
 * moderator while logged in, sees the queue, opens a subject with its reports and snapshot, and
 * resolves with the actions.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call } from '../support/api.js';
import { moderatorCommand, report } from '../support/moderation.js';
import { actor, ok, post, type Actor } from '../support/social.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
let moderator: Actor;
let author: Actor;
let reporters: Actor[];
let postId: string;
const pageErrors: string[] = [];
const body = `moderate me ${Date.now()}`;

beforeAll(async () => {
  [moderator, author, ...reporters] = await Promise.all([actor(), actor(), actor(), actor(), actor()]);
  postId = (await post(author, { body })).post.id;
  for (const [i, reason] of ['spam', 'spam', 'hate'].entries())
    ok(await report(reporters[i]!, { subject_type: 'post', subject_id: postId, reason }), 201);
  ok(
    await report(reporters[0]!, { subject_type: 'profile', subject_id: author.profile.id, reason: 'impersonation' }),
    201,
  );
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

const consoleUrl = () => `${inject('baseUrl')}/console`;
const moderationLink = () => page.getByRole('link', { name: 'Moderation' });

describe('the Moderation page', () => {
  it('shows its link only once the user is a moderator (from the next load of the same session)', async () => {
    await page.goto(consoleUrl());
    await page.getByLabel('Email').fill(moderator.user.email);
    await page.getByLabel('Password').fill(moderator.user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(await moderationLink().count()).toBe(0);

    expect((await moderatorCommand('grant', moderator.user.email)).code).toBe(0);
    await page.reload();
    await moderationLink().waitFor();
  });

  it('lists the queue and opens a subject with its reports and snapshot', async () => {
    await moderationLink().click();
    await page.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
    const row = page.locator('tr', { hasText: postId.slice(0, 8) });
    await row.waitFor();
    expect(await row.locator('td[data-label="Reports"]').textContent()).toBe('3');
    expect(await row.locator('td[data-label="Reasons"]').textContent()).toBe('spam × 2, hate × 1');
    await row.getByRole('button').click();
    const panel = page.getByRole('region', { name: /Reported post/ });
    await panel.waitFor();
    expect(await panel.textContent()).toContain(body);
    expect(await panel.textContent()).toContain('3 open reports');
    for (const name of ['Dismiss', 'Remove content', 'Suspend profile'])
      expect(await panel.getByRole('button', { name }).count()).toBe(1);
  });

  it('removes the content: the post reads 404 and the subject leaves the open queue', async () => {
    await page
      .getByRole('region', { name: /Reported post/ })
      .getByLabel('Note (optional)')
      .fill('spam wave');
    await page.getByRole('button', { name: 'Remove content' }).click();
    await page.getByRole('status').filter({ hasText: 'Remove content' }).waitFor();
    expect((await call('GET', `/v1/posts/${postId}`)).status).toBe(404);
    // The queue reloads after the message shows: the row leaves once it has.
    const row = page.locator('tr', { hasText: postId.slice(0, 8) });
    await row.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(0);
  });

  it('offers no content removal for a profile, and suspends it', async () => {
    await page
      .locator('tr', { hasText: author.profile.id.slice(0, 8) })
      .getByRole('button')
      .click();
    const panel = page.getByRole('region', { name: /Reported profile/ });
    await panel.waitFor();
    expect(await panel.getByRole('button', { name: 'Remove content' }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Suspend profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Suspend profile' }).waitFor();
    expect((await call('GET', `/v1/profiles/${author.profile.id}`)).status).toBe(404);

    await page.getByRole('button', { name: 'Resolved' }).click();
    const resolved = page.locator('tr', { hasText: author.profile.id.slice(0, 8) });
    await resolved.waitFor();
    expect(await resolved.locator('td[data-label="Reports"]').textContent()).toBe('profile_suspended');
    expect(pageErrors).toEqual([]);
  });
});
