/**
 * Where the console opens after log-in, in headless Chromium against the local server: in the
 * workspace when the user manages webhooks in exactly one, at the chooser when in several.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, signUp, unique, type SignedUp } from '../support/api.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const consoleUrl = () => `${inject('baseUrl')}/console`;

/** A browser of its own (tabs of one browser share its console session), logged in as `user` from the form. */
async function logIn(user: SignedUp): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(consoleUrl());
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  return page;
}

async function newWorkspace(owner: SignedUp, name: string): Promise<{ id: string; name: string }> {
  const created = await call('POST', '/v1/workspaces', { token: owner.token, body: { name } });
  expect(created.status).toBe(201);
  return created.body.data.workspace as { id: string; name: string };
}

async function addMember(owner: SignedUp, workspaceId: string, user: SignedUp, role: 'admin' | 'member') {
  const added = await call('POST', `/v1/workspaces/${workspaceId}/members`, {
    token: owner.token,
    body: { email: user.email, role },
  });
  expect(added.status).toBe(201);
}

const hash = (page: Page) => new URL(page.url()).hash;

describe('where the console opens', () => {
  it('lands a user with one workspace to manage in it, after log-in and at the console root', async () => {
    const user = await signUp('Solo Owner');
    // A workspace where the user is only a member does not count: there is still one to manage.
    const other = await signUp('Other Owner');
    const shared = await newWorkspace(other, unique('Shared'));
    await addMember(other, shared.id, user, 'member');

    const page = await logIn(user);
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(hash(page)).toBe(`#/w/${user.workspace.id}/endpoints`);
    expect(await page.locator('.workspace-name').textContent()).toBe(user.workspace.name);

    // Opening the console root while logged in lands there too, and Back does not return to the root.
    await page.goto(`${consoleUrl()}#/w/${user.workspace.id}/activity`);
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    await page.getByRole('link', { name: 'Account console' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(hash(page)).toBe(`#/w/${user.workspace.id}/endpoints`);
    await page.goBack();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    expect(hash(page)).toBe(`#/w/${user.workspace.id}/activity`);
    await page.close();
  });

  it('shows the chooser to a user with two workspaces to manage, and opens the one chosen', async () => {
    const user = await signUp('Two Hats');
    const other = await signUp('Their Partner');
    const team = await newWorkspace(other, unique('Team'));
    await addMember(other, team.id, user, 'admin');

    const page = await logIn(user);
    await page.getByRole('heading', { name: 'Choose a workspace' }).waitFor();
    const links = page.getByRole('main').getByRole('link');
    expect((await links.allTextContents()).sort()).toEqual([user.workspace.name, team.name].sort());

    await page.getByRole('link', { name: team.name }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(hash(page)).toBe(`#/w/${team.id}/endpoints`);
    expect(await page.locator('.workspace-name').textContent()).toBe(team.name);
    await page.close();
  });

  it('ran without a script error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
