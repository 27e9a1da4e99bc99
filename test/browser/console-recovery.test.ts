/**
 * The console with the API's server-side delivery filters and endpoint recovery, in headless
 * Chromium against the local server and two real receivers: one healthy, one down (503) until its
 * deliveries fail, then back up and recovered from its endpoint page.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import {
  activity,
  createEndpoint,
  emitEvent,
  waitFor,
  workspaceWithProfiles,
  type Workspace,
} from '../support/webhooks.js';
import { launchBrowser, type Browser } from './browser.js';

let browser: Browser;
let page: Page;
let ws: Workspace;
let healthy: Receiver;
let down: Receiver;
const ids = { healthy: '', down: '' };
const pageErrors: string[] = [];
/** The webhook-ids the down receiver refused, before the recovery. */
let refusedIds: string[] = [];

beforeAll(async () => {
  ws = await workspaceWithProfiles(1);
  healthy = await startReceiver(() => 200);
  down = await startReceiver(() => ({ status: 503, body: 'down for maintenance' }));
  for (const [key, receiver, name] of [
    ['healthy', healthy, 'Healthy receiver'],
    ['down', down, 'Down receiver'],
  ] as const) {
    const created = await createEndpoint(ws, { url: receiver.url, name });
    receiver.secrets.push(created.secret);
    ids[key] = created.webhook_endpoint.id;
  }
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  await healthy?.close();
  await down?.close();
});

const consoleUrl = () => `${inject('baseUrl')}/console`;

/** The delivery-log request the list sends for these filters (the chart's own requests carry none of them). */
function deliveryRequest(filters: Record<string, string>) {
  return page.waitForRequest((request: Request) => {
    const url = new URL(request.url());
    if (request.method() !== 'GET' || !url.pathname.endsWith(`/v1/workspaces/${ws.workspace.id}/webhook-deliveries`))
      return false;
    return Object.entries(filters).every(([name, value]) => url.searchParams.get(name) === value);
  });
}

const rows = () => page.locator('tr[data-delivery-id]');
const rowTexts = async (label: string) => rows().locator(`td[data-label="${label}"]`).allTextContents();

describe('web console with server-side filters and recovery', () => {
  it('logs in while two events reach a healthy receiver and fail at a down one', { timeout: 90_000 }, async () => {
    await emitEvent(ws);
    await emitEvent(ws);
    await page.goto(consoleUrl());
    await page.getByLabel('Email').fill(ws.email);
    await page.getByLabel('Password').fill(ws.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();

    // Ten attempts a second apart, each answered 503, then the deliveries are failed.
    const failed = await waitFor(
      'both deliveries to the down receiver to fail',
      async () => {
        const items = (await activity(ws)).items.filter((d) => d.webhook_endpoint_id === ids.down);
        return items.length === 2 && items.every((d) => d.status === 'failed') ? items : undefined;
      },
      75_000,
    );
    expect(failed.map((d) => d.attempt_count)).toEqual([10, 10]);
    refusedIds = [...new Set(down.received.map((r) => String(r.headers['webhook-id'])))];
    expect(refusedIds).toHaveLength(2);
    expect(down.received.every((r) => r.verified)).toBe(true);
  });

  it('filters the delivery log at the API by status and endpoint', async () => {
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    const filters = page.getByRole('form', { name: 'Filter deliveries' });

    await filters.locator('select[name=status]').selectOption('failed');
    await filters.locator('select[name=webhook_endpoint_id]').selectOption({ label: 'Down receiver' });
    const failedQuery = deliveryRequest({ status: 'failed', webhook_endpoint_id: ids.down });
    await filters.getByRole('button', { name: 'Apply' }).click();
    const sent = new URL((await failedQuery).url());
    expect(sent.searchParams.get('limit')).toBe('20');
    expect(sent.searchParams.has('event_type')).toBe(false);
    await expect.poll(() => rowTexts('Status')).toEqual(['failed', 'failed']);
    expect(await rowTexts('Endpoint')).toEqual(['Down receiver', 'Down receiver']);
    expect(await rowTexts('Attempts')).toEqual(['10', '10']);

    await filters.locator('select[name=status]').selectOption('succeeded');
    await filters.locator('select[name=webhook_endpoint_id]').selectOption({ label: 'Healthy receiver' });
    const succeededQuery = deliveryRequest({ status: 'succeeded', webhook_endpoint_id: ids.healthy });
    await filters.getByRole('button', { name: 'Apply' }).click();
    await succeededQuery;
    await expect.poll(() => rowTexts('Endpoint')).toEqual(['Healthy receiver', 'Healthy receiver']);
    expect(await rowTexts('Status')).toEqual(['succeeded', 'succeeded']);

    // A filter nothing matches: the API answers an empty page and the console says so.
    await filters.locator('select[name=status]').selectOption('failed');
    const noneQuery = deliveryRequest({ status: 'failed', webhook_endpoint_id: ids.healthy });
    await filters.getByRole('button', { name: 'Apply' }).click();
    await noneQuery;
    await page.getByText('No deliveries match these filters.').waitFor();
    expect(await rows().count()).toBe(0);
  });

  it(
    'recovers the failed deliveries from the endpoint page: each arrives exactly once more, signed',
    { timeout: 60_000 },
    async () => {
      down.respond = () => 200;
      const before = down.received.length;
      await page.getByRole('link', { name: 'Endpoints' }).click();
      await page.getByRole('link', { name: 'Down receiver' }).click();
      await page.getByRole('heading', { name: 'Recover failed deliveries' }).waitFor();
      await page.getByRole('button', { name: 'Recover', exact: true }).click();
      await page.getByRole('status').filter({ hasText: '2 failed deliveries queued again.' }).waitFor();

      await waitFor(
        'both recovered deliveries to succeed',
        async () => {
          const items = (await activity(ws)).items.filter((d) => d.webhook_endpoint_id === ids.down);
          return items.every((d) => d.status === 'succeeded') ? true : undefined;
        },
        30_000,
      );
      const again = down.received.slice(before);
      expect(again.map((r) => String(r.headers['webhook-id'])).sort()).toEqual([...refusedIds].sort());
      expect(again.every((r) => r.verified)).toBe(true);
      // The endpoint page's list refreshes every few seconds.
      await expect.poll(() => rowTexts('Status'), { timeout: 15_000 }).toEqual(['succeeded', 'succeeded']);
      expect(await rowTexts('Attempts')).toEqual(['11', '11']);

      // Nothing is left to recover: a second click queues none and sends nothing.
      await page.getByRole('button', { name: 'Recover', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'No failed deliveries in that window.' }).waitFor();
      expect(down.received.length).toBe(before + 2);
    },
  );

  it('ran without a script error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
