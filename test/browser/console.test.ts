/**
 * The web console in headless Chromium against the local server (global setup) and real webhook
 * receivers on 127.0.0.1: what a workspace owner does with it, step by step, on one page.
 */
import { mkdirSync } from 'node:fs';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { call } from '../support/api.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { activity, emitEvent, waitFor, workspaceWithProfiles, type Workspace } from '../support/webhooks.js';
import { launchBrowser, type Browser } from './browser.js';

/** `npm run screenshots` sets this to docs/screenshots; plain `npm test` keeps the tree clean. */
const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOTS;

let browser: Browser;
let page: Page;
let ws: Workspace;
let receiver: Receiver;
let endpointId: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  ws = await workspaceWithProfiles(1);
  receiver = await startReceiver(() => 200);
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inject('baseUrl') });
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  if (SCREENSHOT_DIR) mkdirSync(SCREENSHOT_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

const consoleUrl = () => `${inject('baseUrl')}/console`;
const alert = () => page.getByRole('alert');
const endpointStatus = async () =>
  (await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`, { token: ws.token })).body.data.items.find(
    (e: { id: string }) => e.id === endpointId,
  ).status as string;

/** The top of the page (at most 1.4 screens, to keep the files small), saved when asked for. */
async function screenshot(name: string) {
  const { width, height } = page.viewportSize()!;
  const pageHeight = await page.evaluate<number>('document.documentElement.scrollHeight');
  const clip = { x: 0, y: 0, width, height: Math.min(pageHeight, Math.round(height * 1.4)) };
  const image = await page.screenshot({
    fullPage: true,
    clip,
    ...(SCREENSHOT_DIR ? { path: `${SCREENSHOT_DIR}/${name}.png` } : {}),
  });
  expect(image.length).toBeGreaterThan(1000);
}

/** Waits (the console refreshes every few seconds) until the delivery row shows the status. */
async function deliveryRow(eventType: string, status: string) {
  const row = page
    .locator('tr[data-delivery-id]', { hasText: eventType })
    .filter({ has: page.locator(`.badge-${status}`) })
    .first();
  await row.waitFor({ timeout: 25_000 });
  return row;
}

describe('web console', () => {
  it("logs in by keyboard, after showing the API's own message for a wrong password, into the one workspace", async () => {
    await page.goto(consoleUrl());
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.name')).toBe('email');
    await page.keyboard.type(ws.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not the password');
    await page.keyboard.press('Enter');

    const wrong = await call('POST', '/v1/sessions', { body: { email: ws.email, password: 'not the password' } });
    expect(wrong.body.error_code).toBe('invalid_credentials');
    await expect.poll(() => alert().textContent()).toContain(wrong.body.error_message);
    expect(await alert().textContent()).toContain('invalid_credentials');

    await page.getByLabel('Password').fill(ws.password);
    await page.getByLabel('Password').press('Enter');
    // The user manages webhooks in exactly one workspace (their own): the console opens it, no chooser.
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/w/${ws.workspace.id}/endpoints`);
    expect(await page.locator('.workspace-name').textContent()).toBe(ws.workspace.name);
  });

  it('shows the message and hint of a refused endpoint', async () => {
    await page.getByRole('link', { name: 'New endpoint' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Orders receiver');
    await page.getByRole('textbox', { name: 'URL' }).fill('ftp://example.com/hooks');
    await page.getByRole('checkbox', { name: /^profile\.followed/ }).check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();

    const refused = await call('POST', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`, {
      token: ws.token,
      body: {
        name: 'Orders receiver',
        url: 'ftp://example.com/hooks',
        event_types: ['profile.followed'],
        profile_ids: [ws.profiles[0]!.id],
      },
    });
    expect(refused.status).toBe(400);
    await alert().waitFor();
    // In words for a person: the field by its name (`url`, not the request's `body.url`), the rule, the code.
    const text = await alert().textContent();
    expect(text).toContain(refused.body.agent.hint!.replaceAll('body.', ''));
    expect(text).not.toContain('body.url');
    expect(text).toContain(refused.body.error_code);
    // The field the API refused is marked, with the rule right under it.
    const url = page.getByRole('textbox', { name: 'URL' });
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await url.getAttribute('aria-describedby')}`).textContent()).toMatch(/\S/);
    // What was typed survives the refusal.
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Orders receiver');
  });

  it('creates the endpoint and shows its secret once, with a copy button', async () => {
    await page.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('heading', { name: 'Orders receiver' }).waitFor();
    const secret = await page.getByRole('textbox', { name: 'Signing secret', exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.push(secret);
    endpointId = /endpoints\/([0-9a-f-]{36})/.exec(page.url())![1]!;

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    await screenshot('endpoint-created');

    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'Orders receiver' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await page.locator('.badge-active').first().textContent()).toBe('active');
  });

  it('sends a test event that a real receiver verifies, and opens its attempts', async () => {
    await page.getByRole('button', { name: 'Send test event' }).click();
    // The message says what happens: the delivery is queued and listed below.
    await page.getByRole('status').filter({ hasText: 'Test event queued as delivery' }).waitFor();
    await page.locator('tr[data-delivery-id]', { hasText: 'webhook.test' }).waitFor();
    const request = await waitFor('the test delivery', () => receiver.received[0]);
    expect(request.verified).toBe(true);
    expect(JSON.parse(request.body).type).toBe('webhook.test');

    const row = await deliveryRow('webhook.test', 'succeeded');
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    const attempt = page.locator('table.attempts tbody tr').first();
    expect(await attempt.locator('td[data-label="Status code"]').textContent()).toBe('200');
    expect(await attempt.locator('td[data-label="Duration"]').textContent()).toMatch(/^\d+ ms$/);
    expect(await attempt.locator('td[data-label="Response"]').textContent()).toBe('ok');
    // The headers section names the webhook-id the receiver got.
    expect(await page.locator('#headers-title + p + pre').textContent()).toContain(
      `webhook-id: ${String(request.headers['webhook-id'])}`,
    );
    // The event's schema: a link to its operation in the API reference's webhooks section.
    const schemaLink = page.getByRole('link', { name: 'webhook.test in the API reference' });
    expect(await schemaLink.getAttribute('href')).toBe(`${inject('baseUrl')}/docs#/webhooks/webhook_webhook_test`);
    // The payload, formatted for reading; the copy button copies the very text the receiver verified.
    const payload = page.getByRole('region', { name: 'Payload' });
    expect(await payload.locator('pre').textContent()).toBe(JSON.stringify(JSON.parse(request.body), null, 2));
    await payload.getByRole('button', { name: 'Copy payload' }).click();
    await payload.getByText('Copied to the clipboard.').waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(request.body);
    expect(copied).not.toContain('\n');
    await payload.locator('summary', { hasText: 'The text as sent' }).click();
    expect(await payload.getByRole('textbox', { name: 'Payload as sent' }).inputValue()).toBe(request.body);
    await screenshot('delivery');
  });

  it('shows a note instead of the body once the event has expired', async () => {
    const eventId = await emitEvent(ws);
    const delivered = await waitFor('the delivery of the event', async () =>
      (await activity(ws)).items.find((d) => d.webhook_event_id === eventId && d.status === 'succeeded'),
    );
    // As DynamoDB's TTL removes an expired event item.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.event(eventId) }));
    await page.goto(`${consoleUrl()}#/w/${ws.workspace.id}/deliveries/${String(delivered.id)}`);
    await page.getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    const payload = page.getByRole('region', { name: 'Payload' });
    expect(await payload.getByRole('note').textContent()).toContain('event has expired');
    expect(await payload.getByRole('button', { name: 'Copy payload' }).count()).toBe(0);
  });

  it("shows a failing receiver's attempts and retries the failed delivery by hand", { timeout: 90_000 }, async () => {
    receiver.respond = () => ({ status: 503, body: 'down for maintenance' });
    await page.goto(`${consoleUrl()}#/w/${ws.workspace.id}/endpoints/${endpointId}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const row = await deliveryRow('webhook.test', 'failed');
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: 'Attempts (10)' }).waitFor();
    const first = page.locator('table.attempts tbody tr').first();
    expect(await first.locator('td[data-label="Status code"]').textContent()).toBe('503');
    expect(await first.locator('td[data-label="Response"]').textContent()).toBe('down for maintenance');

    receiver.respond = () => 200;
    await page.getByRole('button', { name: 'Retry delivery' }).click();
    await page.getByRole('status').filter({ hasText: 'Retry started' }).waitFor();
    await page.getByRole('heading', { name: 'Attempts (11)' }).waitFor({ timeout: 20_000 });
    await page.locator('.title-row .badge-succeeded').waitFor();
    expect(
      await page.locator('table.attempts tbody tr').last().locator('td[data-label="Status code"]').textContent(),
    ).toBe('200');
    // Eleven attempts, one body: the payload the page shows is each one's, as sent.
    const deliveryId = /deliveries\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const bodies = new Set(receiver.received.filter((r) => r.headers['webhook-id'] === deliveryId).map((r) => r.body));
    expect(bodies.size).toBe(1);
    await page.locator('summary', { hasText: 'The text as sent' }).click();
    expect(await page.getByRole('textbox', { name: 'Payload as sent' }).inputValue()).toBe([...bodies][0]);
  });

  it('rotates the secret, shows how long each one signs, and the receiver verifies with both', async () => {
    await page.getByRole('link', { name: 'Orders receiver' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = await page.getByRole('textbox', { name: 'New signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(receiver.secrets[0]);
    receiver.secrets.push(secret);
    const validity = await page.locator('.panel dl').textContent();
    expect(validity).toContain('Previous secret');
    expect(validity).toContain('24 hours');
    await screenshot('secret-rotated');

    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const request = await waitFor('a delivery after rotation', () => receiver.received[before]);
    expect(request.verifiedBy).toEqual([0, 1]);
  });

  it('edits the name and event types of the endpoint, and shows the API refusing an empty selection', async () => {
    await page.getByRole('textbox', { name: 'Name' }).fill('Orders and mentions');
    await page.getByRole('checkbox', { name: /^post\.mention/ }).check();
    const rateLimit = page.getByRole('spinbutton', { name: /^Rate limit/ });
    expect(await rateLimit.inputValue()).toBe('');
    await rateLimit.fill('5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes saved' }).waitFor();
    await page.getByRole('heading', { name: 'Orders and mentions' }).waitFor();
    const endpoint = (await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-endpoints`, { token: ws.token }))
      .body.data.items[0];
    expect(endpoint).toMatchObject({
      name: 'Orders and mentions',
      event_types: ['post.mention', 'profile.followed'],
      rate_limit_per_second: 5,
    });
    expect(await page.locator('dl.facts', { hasText: 'Rate limit' }).textContent()).toContain('5 per second');
    expect(await rateLimit.inputValue()).toBe('5');
    expect(endpoint.profiles.map((p: { id: string }) => p.id)).toEqual([ws.profiles[0]!.id]);

    // Unchecking every event type is the API's to refuse, in its words.
    await page.getByRole('checkbox', { name: /^post\.mention/ }).uncheck();
    await page.getByRole('checkbox', { name: /^profile\.followed/ }).uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await alert().filter({ hasText: 'event_types' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Orders receiver');
    await page.getByRole('checkbox', { name: /^profile\.followed/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Orders receiver' }).waitFor();
  });

  it('shows an endpoint disabled by a 410 and enables it again', { timeout: 60_000 }, async () => {
    receiver.respond = () => 410;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await waitFor('the endpoint to be disabled', async () =>
      (await endpointStatus()) === 'disabled' ? true : undefined,
    );
    await page.reload();
    await page.locator('.title-row .badge-disabled').waitFor();
    await page.getByText('Disabled: the receiver answered 410 Gone.').waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);

    receiver.respond = () => 200;
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('status').filter({ hasText: 'Endpoint enabled' }).waitFor();
    await page.locator('.title-row .badge-active').waitFor();
    expect(await endpointStatus()).toBe('active');
  });

  it("shows the activity: the API's totals, the 24-hour chart and the filtered delivery list", async () => {
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    const { totals } = (await call('GET', `/v1/workspaces/${ws.workspace.id}/webhook-deliveries`, { token: ws.token }))
      .body.data;
    await expect
      .poll(() => page.locator('.totals div', { hasText: 'Failed' }).locator('dd').textContent())
      .toBe(String(totals.failed));
    expect(await page.locator('.totals div', { hasText: 'Succeeded' }).locator('dd').textContent()).toBe(
      String(totals.succeeded),
    );
    expect(await page.getByRole('img').getAttribute('aria-label')).toBe(
      `Last 24 hours: ${totals.succeeded} succeeded and ${totals.failed} failed deliveries.`,
    );
    expect(await page.locator('.chart rect.bar-failed[height]:not([height="0"])').count()).toBeGreaterThan(0);

    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.locator('tr[data-delivery-id] .badge').allTextContents())
      .toEqual(Array(totals.failed).fill('failed'));
    await screenshot('activity');
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => page.locator('tr[data-delivery-id]').count()).toBe(totals.total);
  });

  it('revokes the endpoint only after confirmation', async () => {
    await page.getByRole('link', { name: 'Endpoints' }).click();
    await page.getByRole('link', { name: 'Orders receiver' }).click();
    await page.getByRole('button', { name: 'Revoke…' }).click();
    const dialog = page.getByRole('dialog', { name: /Revoke/ });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await endpointStatus()).toBe('active');

    await page.getByRole('button', { name: 'Revoke…' }).click();
    await dialog.getByRole('button', { name: 'Revoke endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'Endpoint revoked' }).waitFor();
    await page.locator('.title-row .badge-revoked').waitFor();
    expect(await endpointStatus()).toBe('revoked');
  });

  it('is readable on a 375 px wide screen', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    const pages = [
      ['mobile-endpoints', `#/w/${ws.workspace.id}/endpoints`, 'Endpoints'],
      ['mobile-activity', `#/w/${ws.workspace.id}/activity`, 'Activity'],
    ] as const;
    for (const [name, hash, heading] of pages) {
      await page.goto(`${consoleUrl()}${hash}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.locator('tr[data-delivery-id], table.responsive tbody tr').first().waitFor();
      // Nothing wider than the screen: no sideways scrolling.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await screenshot(name);
    }
    await page.locator('tr[data-delivery-id] a').first().click();
    await page.getByRole('heading', { name: /^Attempts/ }).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screenshot('mobile-delivery');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('logs out: the session ends at the API too', async () => {
    const token = await page.evaluate<string>("localStorage.getItem('console.session')");
    expect(token).toMatch(/^st_/);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('You are logged out.').waitFor();
    expect((await call('GET', '/v1/me', { token })).status).toBe(401);
    expect(await page.evaluate<string | null>("localStorage.getItem('console.session')")).toBeNull();
  });

  it('returns to the log-in form with a message when the API ends the session', async () => {
    await page.goto(`${consoleUrl()}#/`);
    await page.getByLabel('Email').fill(ws.email);
    await page.getByLabel('Password').fill(ws.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    const token = await page.evaluate<string>("localStorage.getItem('console.session')");
    expect((await call('DELETE', '/v1/sessions/current', { token })).status).toBe(200);

    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByText('Your session has ended. Log in again.').waitFor();
    expect(await page.getByRole('button', { name: 'Log in' }).isVisible()).toBe(true);
  });

  it('ran without a script error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
