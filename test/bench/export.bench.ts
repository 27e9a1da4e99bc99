/**
 * `npm run bench:export`: the data export of an account of POSTS posts (a tenth of them edited once,
 * so with history), on the real local runtime (`--in-memory`). Two measures:
 * - time to ready: `POST /v1/me/exports`, then `GET /v1/me/exports/{id}` every 100 ms until
 *   `ready` (goal ≤ 60 s, API.md), with the archive's size;
 * - the job's memory: the same job run in this process on a fresh export of each of two accounts
 *   (SMALL_POSTS and POSTS posts), its live heap (after a full collection) sampled every 20 ms:
 *   its peak above the live heap before the job. The goal is memory flat in the number of posts: the larger account's peak within 1.5× the
 *   smaller's (plus 8 MiB of noise).
 * Not a test: it measures, it asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { api, printTable, seedKey, seedUser, startStack, verdict } from './support.js';

const POSTS = Number(process.env.BENCH_EXPORT_POSTS ?? 1000);
const SMALL_POSTS = Math.max(1, Math.round(POSTS / 4));
const GOAL_MS = 60_000;
const MiB = 1024 * 1024;
/** How often the job's live heap is sampled (each sample a full garbage collection). */
const SAMPLE_MS = 20;
const gc = (globalThis as { gc?: () => void }).gc;

/** An account of `posts` posts, a tenth edited once; its user's id and session. */
async function seedAccount(base: string, posts: number) {
  const user = await seedUser(base, [`exporter${posts}`]);
  const profileId = user.profiles[0]!;
  const key = await seedKey(base, user, ['posts:write'], [profileId]);
  const body = (i: number) =>
    `Post ${i} of the export benchmark. ${'Words that fill a post of a usual length. '.repeat(4)}`;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < posts) {
        const i = next++;
        const { post } = await api(base, 'POST', '/v1/posts', { body: body(i) }, key, profileId);
        if (i % 10 === 0)
          await api(base, 'PATCH', `/v1/posts/${post.id}`, { body: `${body(i)} (edited)` }, key, profileId);
      }
    }),
  );
  const me = await api(base, 'GET', '/v1/me', undefined, user.session);
  return { ...user, userId: me.user.id as string };
}

async function timeToReady(base: string, session: string) {
  const started = performance.now();
  const { export: created } = await api(base, 'POST', '/v1/me/exports', undefined, session);
  for (;;) {
    const { export: current } = await api(base, 'GET', `/v1/me/exports/${created.id}`, undefined, session);
    if (current.status !== 'pending')
      return { ms: performance.now() - started, status: current.status, bytes: current.size_bytes };
    if (performance.now() - started > 5 * GOAL_MS) throw new Error('the export did not settle within 5 minutes');
    await delay(100);
  }
}

/** The job in this process on a fresh export of the user: its live heap's peak above where it started. */
async function jobMemory(userId: string, dir: string) {
  // Imported once the stack is up: the store's client reads its endpoint from the environment.
  const { newExport } = await import('../../shared/domain/exports.js');
  const { startExport } = await import('../../shared/store/exports.js');
  const { runExport, fetchMedia } = await import('../../shared/exports/run-export.js');
  const { LocalExportStorage } = await import('../../infra/local/local-export-storage.js');
  const record = newExport(new Date(), userId, 'http://127.0.0.1');
  await startExport(record, new Date());
  // The live heap, garbage collected before each sample (npm run bench:export runs with --expose-gc):
  // without it the peak measures when V8 chose to collect, not what the job holds.
  const live = () => {
    gc?.();
    return process.memoryUsage().heapUsed;
  };
  const before = live();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, live())), SAMPLE_MS);
  const started = performance.now();
  await runExport(record.id, { storage: new LocalExportStorage(dir), readMedia: fetchMedia });
  const ms = performance.now() - started;
  clearInterval(sampler);
  return { peakMiB: (peak - before) / MiB, ms };
}

const stack = await startStack({ PASSWORD_SCRYPT_LOG2_N: '14' });
const dir = mkdtempSync(join(os.tmpdir(), 'export-bench-'));
try {
  const base = stack.server.baseUrl;
  const small = await seedAccount(base, SMALL_POSTS);
  const large = await seedAccount(base, POSTS);
  const ready = await timeToReady(base, large.session);
  // Each job once before the measured runs, so module loading and the client's warm-up are not counted.
  await jobMemory(small.userId, dir);
  const smallJob = await jobMemory(small.userId, dir);
  const largeJob = await jobMemory(large.userId, dir);
  const flat = largeJob.peakMiB <= 1.5 * smallJob.peakMiB + 8;
  const mib = (n: number) => n.toFixed(1);
  printTable(
    `Data export (${os.cpus().length} cores; local runtime, DynamoDB Local in memory)`,
    ['measure', 'value', 'goal', 'verdict'],
    [
      [
        `time to ready, ${POSTS} posts (POST → GET ready)`,
        `${Math.round(ready.ms)} ms (${ready.status}, ${mib(ready.bytes / MiB)} MiB)`,
        `≤ ${GOAL_MS} ms`,
        verdict(
          ready.status === 'ready' && ready.ms <= GOAL_MS,
          `${Math.round(ready.ms)} ms: a Query per page of 100, and one per edited post for its history`,
          'read the histories of a page side by side across pages, and write the ZIP while the next page is read',
        ),
      ],
      [
        `job live heap peak, ${SMALL_POSTS} posts`,
        `${mib(smallJob.peakMiB)} MiB (${Math.round(smallJob.ms)} ms, GC every 20 ms)`,
        '',
        '',
      ],
      [
        `job live heap peak, ${POSTS} posts`,
        `${mib(largeJob.peakMiB)} MiB (${Math.round(largeJob.ms)} ms, GC every 20 ms)`,
        `flat: ≤ 1.5 × ${mib(smallJob.peakMiB)} + 8 MiB`,
        verdict(
          flat,
          `${mib(largeJob.peakMiB)} MiB against ${mib(smallJob.peakMiB)} MiB`,
          'find what grows with the posts (a heap snapshot at the end of posts.json)',
        ),
      ],
    ],
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await stack.stop();
}
