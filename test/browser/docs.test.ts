/**
 * GET /docs: the reference page shows every tag, operation and webhook of the served OpenAPI
 * document, offline, and draws an operation's shared error responses.
 */
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { launchBrowser, type Browser } from './browser.js';

interface Operation {
  tags?: string[];
  summary?: string;
  responses?: Record<string, { $ref?: string; description?: string }>;
}
type PathItem = Record<string, Operation>;
interface OpenApiDocument {
  tags?: { name: string }[];
  paths: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: { responses?: Record<string, { description: string }> };
}

/** The keys of a path item that are operations (the others are `parameters`, `summary`, …). */
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** One operation as a reader sees its summary line: method, path (or webhook name) and summary. */
const line = (method: string, path: string, summary: string) => `${method.toUpperCase()} ${path}: ${summary}`;

function operationsOf(items: Record<string, PathItem>): { operation: Operation; line: string }[] {
  return Object.entries(items).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ operation, line: line(method, path, operation.summary ?? '') })),
  );
}

/**
 * The sections the page must show, as Swagger UI groups them: the declared tags in the document's
 * order, then any other tag in order of first use; an operation under each of its tags (an untagged
 * one under "default"), in the document's order.
 */
function expectedSections(document: OpenApiDocument): Map<string, string[]> {
  const sections = new Map((document.tags ?? []).map(({ name }) => [name, [] as string[]]));
  for (const { operation, line } of operationsOf(document.paths)) {
    for (const tag of operation.tags?.length ? operation.tags : ['default']) {
      sections.set(tag, [...(sections.get(tag) ?? []), line]);
    }
  }
  return sections;
}

/** The summary lines of the operation blocks under `scope` that a reader can see. */
async function visibleLines(scope: Locator): Promise<string[]> {
  const blocks = scope.locator('.opblock').filter({ visible: true });
  const [methods, paths, summaries] = await Promise.all([
    blocks.locator('.opblock-summary-method').allTextContents(),
    blocks.locator('.opblock-summary-path').evaluateAll((spans) => spans.map((span) => span.getAttribute('data-path'))),
    blocks.locator('.opblock-summary-description').allTextContents(),
  ]);
  return methods.map((method, i) => line(method, paths[i] ?? '', summaries[i] ?? ''));
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('API reference page', () => {
  it('shows every tag, operation and webhook of the served document, with assets from this server only', async () => {
    const baseUrl = inject('baseUrl');
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .info .title', { hasText: 'Social Network Service API' }).waitFor();
    const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
    const sections = expectedSections(document);
    const webhooks = operationsOf(document.webhooks ?? {}).map((webhook) => webhook.line);
    expect(webhooks.length).toBeGreaterThan(0);

    // The webhooks come after the last tag, drawn in the same pass as the operations.
    await page.locator('.webhooks .opblock').first().waitFor();
    const tagSections = page.locator('.opblock-tag-section');
    const rendered = new Map<string, string[]>();
    for (const section of await tagSections.all()) {
      const tag = await section.locator('.opblock-tag').getAttribute('data-tag');
      rendered.set(tag ?? '', await visibleLines(section));
    }
    expect(rendered).toEqual(sections);
    expect([...rendered.keys()]).toEqual([...sections.keys()]);
    expect(await visibleLines(page.locator('.webhooks'))).toEqual(webhooks);

    // The MCP endpoint is not an OpenAPI path: the page points agents to it.
    expect(await page.locator('.swagger-ui .info', { hasText: 'POST /mcp' }).count()).toBe(1);
    // "Try it out" goes to the server that served the page.
    expect(await page.locator('.servers select option').first().textContent()).toContain(baseUrl);

    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(baseUrl) && !url.startsWith('data:'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows an operation’s shared error responses (components/responses) with their codes', async () => {
    const baseUrl = inject('baseUrl');
    const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
    const { responses = {} } = document.paths['/v1/posts']!.post!;
    const shared = (ref: string) => document.components?.responses?.[ref.replace('#/components/responses/', '')];
    // Swagger UI draws a description's `code` as code: the row reads `409invalid_state: …`.
    const expected = Object.entries(responses)
      .filter(([status]) => Number(status) >= 400)
      .map(([status, response]) => `${status}${(shared(response.$ref ?? '')?.description ?? '').replaceAll('`', '')}`);
    expect(expected.length).toBeGreaterThan(5);

    const page = await browser.context.newPage();
    await page.goto(`${baseUrl}/docs`);
    const operation = page.locator('#operations-Posts-createPost');
    await operation.locator('.opblock-summary').first().click();
    const rows = operation.locator('.responses-table tr.response');
    await rows.first().waitFor();
    const drawn = await rows.evaluateAll((trs) =>
      trs.map(
        (tr) =>
          `${tr.querySelector('.response-col_status')?.textContent?.trim()}${tr.querySelector('.response-col_description__inner')?.textContent?.trim()}`,
      ),
    );
    expect(drawn).toEqual(expect.arrayContaining(expected));
    await page.close();
  });
});
