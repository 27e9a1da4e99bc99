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
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { api, printTable, seedKey, seedUser, startCountedServer, verdict } from './support.js';

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
  // The handlers served in this process, on the same DynamoDB Local, so that their calls can be recorded.
  const served = await startCountedServer();
  const { base, recorder } = served;
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
            `${blockedPost.chain} sequential`,
            "read the safety sets beside the request's first read, not after it",
          ),
        ],
        [
          'the safety sets add one DynamoDB call (one Query) per acting request',
          `${(blockedPost.calls - plainPost.calls).toFixed(2)} more calls with ${BLOCKS} blocks than with 0; ${plainPost.safety.toFixed(2)} safety Query`,
          verdict(
            plainPost.safety === 1 && blockedPost.safety === 1 && blockedPost.calls === plainPost.calls,
            `${plainPost.safety.toFixed(2)} safety Query`,
            'keep every block and mute in the one safety partition (store/safety.ts)',
          ),
        ],
        [
          `the feed page with ${BLOCKS} blocks costs the calls of one with none (no read per block)`,
          `${blockedFeed.calls.toFixed(2)} calls vs ${plainFeed.calls.toFixed(2)}; ${blockedFeed.chain} vs ${plainFeed.chain} sequential`,
          verdict(
            blockedFeed.calls <= plainFeed.calls && blockedFeed.chain <= plainFeed.chain,
            `${blockedFeed.calls.toFixed(2)} calls`,
            'filter the page by the sets the request read, not by a read per block',
          ),
        ],
      ],
    );
  } finally {
    served.close();
    await dynamo.stop();
  }
}

async function seed(base: string) {
  const names = ['author', 'muted', 'plain', 'blocker'];
  const user = await seedUser(base, names);
  const ids = Object.fromEntries(names.map((name, i) => [name, user.profiles[i]!]));
  const key = await seedKey(base, user, ['all:all'], user.profiles);
  const { putFeedEntries } = await import('../../shared/store/feed.js');
  const entries = [];
  for (let i = 0; i < 30; i++) {
    const by = i % 3 === 0 ? ids.muted! : ids.author!;
    const { post } = await api(base, 'POST', '/v1/posts', { body: `Post ${i}` }, key, by);
    entries.push({ post_id: post.id as string, published_at: post.published_at as string });
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
