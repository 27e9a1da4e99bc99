/**
 * `npx tsx test/bench/safety.bench.ts`: what blocks and mutes cost an acting request, on a
 * throw-away DynamoDB Local (in memory) with the handlers served in this process and every
 * DynamoDB call recorded on the store's client (dynamodb-calls.ts).
 * 1. GET /v1/posts/{id} anonymous, and acting as a profile with 0 and with 1,000 blocks: calls, the
 *    safety sets' Query, the longest chain of calls waited for one after another, read units.
 * 2. GET /v1/feed (20) acting as a reader with 1,000 blocks and a muted author in its inbox:
 *    calls and chain, against the same page with no blocks.
 * Not a test: it measures and prints goals with verdicts, it asserts nothing.
 */
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';
import { newId } from '../../shared/domain/ids.js';
import { newBlock } from '../../shared/domain/safety.js';
import { recordDynamoDbCalls, sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { api, printTable, verdict } from './support.js';

const TABLE_NAME = 'social-network-bench-safety';
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 1000);
const COUNTED = Number(process.env.BENCH_COUNTED ?? 50);

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The rate-window booking (UpdateItem) is every request's and amortised; left out of the figures. */
const counted = (calls: DynamoDbCall[]) => calls.filter((call) => call.command !== 'UpdateItem');
const isSafety = (call: DynamoDbCall) => call.command === 'Query' && call.partition?.startsWith('SAFETY#') === true;

async function main() {
  const dynamo = await startDynamoDbLocal({ inMemory: true, dataDir: '' });
  await ensureTable(dynamo.endpoint, TABLE_NAME);
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = TABLE_NAME;
  Object.assign(process.env, GENEROUS_RATE_LIMITS);
  const { db } = await import('../../shared/store/client.js');
  const { createHttpServer } = await import('../../infra/local/http-server.js');
  const recorder = recordDynamoDbCalls(db());
  const server = await createHttpServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const seeded = await seed(base);
    const measure = async (name: string, path: string, profileId: string | undefined) => {
      const init = {
        headers: {
          ...(profileId ? { authorization: `Bearer ${seeded.key}`, 'x-profile-id': profileId } : {}),
        },
      };
      const send = async () => {
        const response = await fetch(`${base}${path}`, init);
        if (!response.ok) throw new Error(`${name}: ${response.status} ${await response.text()}`);
        return ((await response.json()) as { data: { items?: unknown[] } }).data;
      };
      await send();
      const runs: DynamoDbCall[][] = [];
      let items = 0;
      for (let i = 0; i < COUNTED; i++) {
        recorder.reset();
        items = (await send()).items?.length ?? 0;
        runs.push(counted([...recorder.calls]));
      }
      return {
        name,
        calls: mean(runs.map((calls) => calls.length)),
        safety: mean(runs.map((calls) => calls.filter(isSafety).length)),
        chain: median(runs.map((calls) => sequentialRoundTrips(calls))),
        chainWithoutSafety: median(runs.map((calls) => sequentialRoundTrips(calls.filter((c) => !isSafety(c))))),
        readUnits: mean(runs.map((calls) => calls.reduce((sum, call) => sum + call.readUnits, 0))),
        items,
        typical: runs[0]!
          .map((call) => call.command)
          .sort()
          .join(' + '),
      };
    };

    const post = `/v1/posts/${seeded.postId}`;
    const reads = [
      await measure('GET /v1/posts/{id}, anonymous', post, undefined),
      await measure('GET /v1/posts/{id}, acting, 0 blocks', post, seeded.plain),
      await measure(`GET /v1/posts/{id}, acting, ${BLOCKS} blocks`, post, seeded.blocker),
      await measure('GET /v1/feed (20), acting, 0 blocks', '/v1/feed?limit=20', seeded.plain),
      await measure(`GET /v1/feed (20), acting, ${BLOCKS} blocks + 1 mute`, '/v1/feed?limit=20', seeded.blocker),
    ];
    printTable(
      'What blocks and mutes add to an acting request (rate-window UpdateItem left out)',
      ['request', 'calls', 'of them', 'safety Query', 'sequential', 'without safety', 'read units', 'items'],
      reads.map((r) => [
        r.name,
        r.calls.toFixed(2),
        r.typical,
        r.safety.toFixed(2),
        r.chain,
        r.chainWithoutSafety,
        r.readUnits.toFixed(1),
        r.items,
      ]),
    );
    const [, plainPost, blockedPost, plainFeed, blockedFeed] = reads as [
      (typeof reads)[0],
      (typeof reads)[0],
      (typeof reads)[0],
      (typeof reads)[0],
      (typeof reads)[0],
    ];
    printTable(
      'Goals',
      ['goal', 'measured', 'verdict'],
      [
        [
          'the safety sets add no sequential round trip to an acting read',
          `${blockedPost.chain} sequential with them, ${blockedPost.chainWithoutSafety} without`,
          verdict(
            blockedPost.chain === blockedPost.chainWithoutSafety && plainPost.chain === plainPost.chainWithoutSafety,
          ),
        ],
        [
          'the safety sets add one DynamoDB call (one Query) per acting request',
          `${(blockedPost.calls - plainPost.calls).toFixed(2)} more calls with ${BLOCKS} blocks than with 0; ${plainPost.safety.toFixed(2)} safety Query`,
          verdict(plainPost.safety === 1 && blockedPost.safety === 1 && blockedPost.calls === plainPost.calls),
        ],
        [
          `the feed page with ${BLOCKS} blocks costs the calls of one with none (no read per block)`,
          `${blockedFeed.calls.toFixed(2)} calls vs ${plainFeed.calls.toFixed(2)}; ${blockedFeed.chain} vs ${plainFeed.chain} sequential`,
          verdict(blockedFeed.calls <= plainFeed.calls && blockedFeed.chain <= plainFeed.chain),
        ],
      ],
    );
  } finally {
    await new Promise((r) => server.close(r));
    await dynamo.stop();
  }
}

async function seed(base: string) {
  const email = `bench_safety_${Date.now()}@example.com`;
  const { workspace } = await api(base, 'POST', '/v1/users', { email, password: 'bench password', name: 'Bench' });
  const { session } = await api(base, 'POST', '/v1/sessions', { email, password: 'bench password' });
  const ids: Record<string, string> = {};
  for (const name of ['author', 'muted', 'plain', 'blocker']) {
    const profile = await api(
      base,
      'POST',
      '/v1/profiles',
      { type: 'human', username: `${name}_${Date.now() % 100000}`, name, call_name: name },
      session.token,
    );
    ids[name] = profile.id as string;
  }
  const { key } = await api(
    base,
    'POST',
    `/v1/workspaces/${workspace.id}/api-keys`,
    { name: 'bench', scopes: ['all:all'], profile_ids: Object.values(ids) },
    session.token,
  );
  const { putFeedEntries } = await import('../../shared/store/feed.js');
  const entries = [];
  for (let i = 0; i < 30; i++) {
    const by = i % 3 === 0 ? ids.muted! : ids.author!;
    const { post } = await api(base, 'POST', '/v1/posts', { body: `Post ${i}` }, key, by);
    entries.push({ post_id: post.id as string, author_id: by, published_at: post.published_at as string });
  }
  for (const reader of [ids.plain!, ids.blocker!]) {
    for (const author of [ids.author!, ids.muted!])
      await api(base, 'POST', '/v1/profile-follows', { followed_profile_id: author }, key, reader);
    // The fan-out pipeline does not run in this process: the inbox is written as it would.
    await putFeedEntries(reader, entries);
  }
  await api(base, 'POST', '/v1/profile-mutes', { muted_profile_id: ids.muted }, key, ids.blocker);
  const { block } = await import('../../shared/store/safety.js');
  for (let i = 0; i < BLOCKS; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, BLOCKS - i) }, () => block(newBlock(new Date(), ids.blocker!, newId()))),
    );
  return { key, postId: entries[1]!.post_id, plain: ids.plain!, blocker: ids.blocker! };
}

await main();
