/**
 * `npm run bench:openapi`: what the OpenAPI document weighs and how soon the /docs page (Swagger
 * UI) shows it, on a throw-away stack. The document: bytes as GET /v1/openapi.json serves it and
 * gzipped, and where they are (paths, webhooks, components). The page, in a fresh headless
 * Chromium profile each run: from navigation to the first operation drawn and to the last (the
 * webhooks come after every tag), and the page's main-thread busy time until the first (Chrome's
 * TaskDuration, less at the mercy of the machine's other processes than the wall clock).
 * Goals (the shared error responses): the document at most a third of the 1.51 MiB it was
 * (512 KiB), the first operation in half the 6.5 s it took (issue 32, on the shared machine).
 */
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../support/chromium.js';
import { percentile, printTable, startStack, verdict } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MAX_DOCUMENT_BYTES = 512 * 1024;
const MAX_FIRST_OPERATION_MS = 3250;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? {}));

async function main() {
  const stack = await startStack();
  try {
    const base = stack.server.baseUrl;
    const served = await (await fetch(`${base}/v1/openapi.json`)).text();
    const document = JSON.parse(served) as Record<string, Record<string, unknown> | undefined>;
    const components = document.components ?? {};
    const size = Buffer.byteLength(served);
    printTable(
      'GET /v1/openapi.json',
      ['part', 'bytes', 'entries'],
      [
        ['whole document', kib(size), ''],
        ['whole document, gzipped', kib(gzipSync(served).length), ''],
        ['paths', kib(bytesOf(document.paths)), Object.keys(document.paths ?? {}).length],
        ['webhooks', kib(bytesOf(document.webhooks)), Object.keys(document.webhooks ?? {}).length],
        ...Object.entries(components).map(([kind, entries]) => [
          `components/${kind}`,
          kib(bytesOf(entries)),
          Object.keys(entries as object).length,
        ]),
      ],
    );

    const browser = await chromium.launch({
      executablePath: await chromiumPath(),
      headless: true,
      args: ['--no-sandbox'],
    });
    const first: number[] = [];
    const last: number[] = [];
    const busy: number[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        const started = performance.now();
        await page.goto(`${base}/docs`);
        await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
        first.push(performance.now() - started);
        const { metrics } = await cdp.send('Performance.getMetrics');
        busy.push(1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN));
        await page.locator('.webhooks .opblock').first().waitFor({ timeout: 60_000 });
        last.push(performance.now() - started);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    first.sort((a, b) => a - b);
    last.sort((a, b) => a - b);
    busy.sort((a, b) => a - b);
    const firstMedian = percentile(first, 50);
    printTable(
      `/docs (Swagger UI), ${RUNS} runs`,
      ['measure', 'median ms', 'max ms', 'goal'],
      [
        [
          'document size',
          '',
          '',
          verdict(size <= MAX_DOCUMENT_BYTES, kib(size), 'components/parameters for the repeated request headers'),
        ],
        [
          'first operation drawn',
          Math.round(firstMedian),
          Math.round(first.at(-1)!),
          verdict(
            firstMedian <= MAX_FIRST_OPERATION_MS,
            `${Math.round(firstMedian)} ms`,
            'profile Swagger UI on the document (its resolver, not the bytes, may dominate now)',
          ),
        ],
        ['main thread busy until the first', Math.round(percentile(busy, 50)), Math.round(busy.at(-1)!), ''],
        ['last operation drawn (webhooks)', Math.round(percentile(last, 50)), Math.round(last.at(-1)!), ''],
      ],
    );
  } finally {
    await stack.stop();
  }
}

await main();
