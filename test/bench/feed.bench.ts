/**
 * `npx tsx test/bench/feed.bench.ts`: the home feed, on a throw-away DynamoDB Local (in memory).
 * 1. Fan-out: one post to 1,000 followers through the real local runtime (stream poller → fan-out
 *    → in-process feed queue → writer), its DynamoDB writes through the capacity proxy (write
 *    units as DynamoDB Local reports them, indexes included). Time from the POST's answer until
 *    each follower's inbox holds the entry (polled with BatchGetItem every few ms: p50 and max),
 *    and write units per follower.
 * 2. A feed page: the same handlers served in this process, every DynamoDB call recorded on the
 *    store's client (dynamodb-calls.ts): calls per page, the longest chain waited for one after
 *    another, read units, serial latency; then autocannon on it. The goal counts the follows'
 *    BatchGetItem after the posts' (an inbox entry names no author: docs/decisions.md "Feed inbox
 *    entries name no author").
 * Not a test: it measures and prints goals with verdicts, it asserts nothing.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { newId } from '../../shared/domain/ids.js';
import { newFollow } from '../../shared/domain/social.js';
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { startCapacityProxy } from './capacity-proxy.js';
import {
  api,
  percentile,
  printTable,
  seedKey,
  seedUser,
  startProxiedStack,
  startCountedServer,
  verdict,
} from './support.js';

const TABLE_NAME = 'social-network-bench-feed';
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const COUNTED = Number(process.env.BENCH_COUNTED ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** API.md: a followed author's new post is in the feed within 5 seconds. */
const PROMISED_MS = 5000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const stack = await startProxiedStack(TABLE_NAME, { PASSWORD_SCRYPT_LOG2_N: '14' });
  const { proxy, server } = stack;
  // This process seeds and polls DynamoDB Local directly (uncounted); the server writes through the proxy.
  process.env.DYNAMODB_ENDPOINT = stack.dynamodbEndpoint;
  process.env.TABLE_NAME = TABLE_NAME;
  Object.assign(process.env, GENEROUS_RATE_LIMITS);
  try {
    const seeded = await seed(server.baseUrl);
    await fanOutRounds(server.baseUrl, seeded, proxy);
    await pages(seeded);
  } finally {
    await stack.stop();
  }
}

interface Seeded {
  key: string;
  session: string;
  author: string;
  reader: string;
  /** Follows the reader's authors and one author merged at read time. */
  readerOfLarge: string;
  followers: string[];
}

async function seed(base: string): Promise<Seeded> {
  const names = ['author', 'reader', 'friend', 'readeroflarge', 'celebrity'];
  const user = await seedUser(base, names);
  const { session } = user;
  const ids = Object.fromEntries(names.map((name, i) => [name, user.profiles[i]!]));
  const key = await seedKey(base, user, ['all:all'], user.profiles);
  const followAs = (reader: string, author: string) =>
    api(base, 'POST', '/v1/profile-follows', { followed_profile_id: author }, key, reader);

  // The author's followers: the reader over HTTP, the rest written straight into the table.
  const { follow } = await import('../../shared/store/follows.js');
  await followAs(ids.reader!, ids.author!);
  const followers = [ids.reader!];
  for (let i = followers.length; i < FOLLOWERS; i += 50) {
    const batch = Array.from({ length: Math.min(50, FOLLOWERS - i) }, () => newId());
    await Promise.all(batch.map((id) => follow(newFollow(new Date(), { id, type: 'human' }, ids.author!), [])));
    followers.push(...batch);
  }

  // A page's worth of posts from a friend with few followers, in both readers' feeds.
  await followAs(ids.reader!, ids.friend!);
  await followAs(ids.readeroflarge!, ids.friend!);
  await followAs(ids.readeroflarge!, ids.celebrity!);
  for (let i = 0; i < 30; i++) await api(base, 'POST', '/v1/posts', { body: `Friend post ${i}` }, key, ids.friend);
  // The celebrity merged at read time, as the fan-out marks an author above FEED_FANOUT_MAX_FOLLOWERS.
  const { addLargeAuthor, markReadTimeAuthor } = await import('../../shared/store/feed.js');
  await markReadTimeAuthor(ids.celebrity!, new Date());
  await addLargeAuthor(ids.readeroflarge!, ids.celebrity!);
  for (let i = 0; i < 10; i++)
    await api(base, 'POST', '/v1/posts', { body: `Celebrity post ${i}` }, key, ids.celebrity);
  // Until the friend's posts are fanned out to both readers.
  for (const reader of [ids.reader!, ids.readeroflarge!]) {
    const deadline = Date.now() + 60_000;
    while ((await api(base, 'GET', '/v1/feed?limit=20', undefined, key, reader)).items.length < 20) {
      if (Date.now() > deadline) throw new Error('the seeded posts did not reach the feeds');
      await sleep(100);
    }
  }
  return {
    key,
    session,
    author: ids.author!,
    reader: ids.reader!,
    readerOfLarge: ids.readeroflarge!,
    followers,
  };
}

type Breakdown = Map<string, { requests: number; units: number }>;

function addInto(sums: Breakdown, breakdown: Breakdown): void {
  for (const [kind, entry] of breakdown) {
    const sum = sums.get(kind) ?? { requests: 0, units: 0 };
    sum.requests += entry.requests;
    sum.units += entry.units;
    sums.set(kind, sum);
  }
}

/** Until the writes stop (the event log's entries trail the inboxes): no change in the units for 2 s, or 60 s. */
async function settled(proxy: { units(): { total: number } }): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = -1;
  while (Date.now() < deadline && proxy.units().total !== last) {
    last = proxy.units().total;
    await sleep(2000);
  }
}

/** Part 1: one post to FOLLOWERS followers, ROUNDS times. */
async function fanOutRounds(base: string, seeded: Seeded, proxy: Awaited<ReturnType<typeof startCapacityProxy>>) {
  const { batchGet, keyId } = await import('../../shared/store/batch.js');
  const { keys } = await import('../../shared/store/keys.js');
  const rows: (string | number)[][] = [];
  const maxes: number[] = [];
  const p50s: number[] = [];
  const perFollower: number[] = [];
  const kinds: Breakdown = new Map();
  // The seeding's own trailing writes (its follows' notifications and their log entries) are not the rounds'.
  await settled(proxy);
  proxy.reset();
  for (let round = 1; round <= ROUNDS; round++) {
    await sleep(1500); // the last round's writes (and the stream's checkpoints) settle
    addInto(kinds, proxy.breakdown()); // the last round's, trailing writes included
    proxy.reset();
    const post = await api(base, 'POST', '/v1/posts', { body: `Round ${round}` }, seeded.key, seeded.author);
    const answered = performance.now();
    const { id, published_at: publishedAt } = post.post as { id: string; published_at: string };
    const waiting = new Map(seeded.followers.map((reader) => [keyId(keys.feedEntry(reader, publishedAt, id)), reader]));
    const arrivals: number[] = [];
    const deadline = Date.now() + 60_000;
    while (waiting.size > 0) {
      if (Date.now() > deadline) throw new Error(`round ${round}: ${waiting.size} inboxes never got the post`);
      const found = await batchGet(
        [...waiting.keys()].map((k) => ({ pk: k.split('\u0000')[0]!, sk: k.split('\u0000')[1]! })),
      );
      const now = performance.now();
      for (const k of found.keys()) if (waiting.delete(k)) arrivals.push(now - answered);
      if (waiting.size > 0) await sleep(10);
    }
    await sleep(1500);
    arrivals.sort((a, b) => a - b);
    const breakdown = proxy.breakdown();
    const inboxUnits = breakdown.get('BatchWriteItem')?.units ?? 0;
    const total = proxy.units().total;
    const creation = [...breakdown]
      .filter(([kind]) => kind.startsWith('TransactWriteItems'))
      .reduce((s, [, e]) => s + e.units, 0);
    const p50 = percentile(arrivals, 50);
    const max = arrivals.at(-1)!;
    p50s.push(p50);
    maxes.push(max);
    perFollower.push((total - creation) / FOLLOWERS);
    rows.push([
      round,
      FOLLOWERS,
      Math.round(arrivals[0]!),
      Math.round(p50),
      Math.round(max),
      (inboxUnits / FOLLOWERS).toFixed(3),
      ((total - creation) / FOLLOWERS).toFixed(3),
      creation,
    ]);
  }
  await settled(proxy);
  addInto(kinds, proxy.breakdown());
  const perFollowerOf = (kind: string) => (kinds.get(kind)?.units ?? 0) / (ROUNDS * FOLLOWERS);
  const inboxPerFollower = perFollowerOf('BatchWriteItem');
  const logPerFollower = perFollowerOf('PutItem EVENTS');
  const logItemsPerFollower = (kinds.get('PutItem EVENTS')?.requests ?? 0) / (ROUNDS * FOLLOWERS);
  rows.push([
    'median',
    '',
    '',
    Math.round(median(p50s)),
    Math.round(median(maxes)),
    '',
    median(perFollower).toFixed(3),
    '',
  ]);
  printTable(
    `Fan-out: one post to ${FOLLOWERS} followers through the local runtime (stream poller, 100 ms → fan-out → in-process feed queue → writer), ` +
      `${ROUNDS} rounds; ms from the POST's answer until each inbox holds the entry (polled); write units as DynamoDB Local reports them (ReturnConsumedCapacity INDEXES, through the proxy)`,
    [
      'round',
      'followers',
      'first ms',
      'p50 ms',
      'max ms',
      'WRU/follower (inbox BatchWriteItem)',
      'WRU/follower (all but the post)',
      'WRU post create',
    ],
    rows,
  );
  printTable(
    'Fan-out writes by kind, all rounds together',
    ['kind', 'requests', 'units'],
    [...kinds].sort((a, b) => b[1].units - a[1].units).map(([kind, e]) => [kind, e.requests, e.units]),
  );
  printTable(
    'Fan-out goals',
    ['measure', 'value', 'goal', ''],
    [
      [
        'max ms until every inbox has the post (median of rounds)',
        Math.round(median(maxes)),
        `≤ ${PROMISED_MS} (API.md)`,
        verdict(
          median(maxes) <= PROMISED_MS,
          `${Math.round(median(maxes))} ms`,
          'more writer concurrency or larger fan-out messages (infra/feed-event-sources.ts)',
        ),
      ],
      [
        'write units per follower: the inbox entry (all rounds)',
        inboxPerFollower.toFixed(3),
        '≈ 1 (≤ 1.1)',
        verdict(
          inboxPerFollower <= 1.1,
          inboxPerFollower.toFixed(3),
          'find the writes beside the inbox entries in the breakdown above',
        ),
      ],
      [
        "write units per follower: feed.post in the follower's event log (all rounds, settled)",
        `${logPerFollower.toFixed(3)} (${logItemsPerFollower.toFixed(3)} items)`,
        'one item (API.md "Live")',
        verdict(
          logItemsPerFollower <= 1.01,
          `${logItemsPerFollower.toFixed(3)} items`,
          'one entry per follower is the contract; fewer units: log the post by reference, presented on read',
        ),
      ],
    ],
  );
}

/** Part 2: feed pages, counted in process, then autocannon. */
async function pages(seeded: Seeded) {
  // The handlers served in this process, on the same DynamoDB Local, so that their calls can be recorded.
  const served = await startCountedServer();
  const { base: local, recorder } = served;
  const as = (token: string, profile: string) => ({
    headers: { authorization: `Bearer ${token}`, 'x-profile-id': profile },
  });
  const cases = [
    { name: 'GET /v1/feed (20), API key + X-Profile-Id', init: as(seeded.key, seeded.reader), large: 0 },
    { name: 'GET /v1/feed (20), session + X-Profile-Id', init: as(seeded.session, seeded.reader), large: 0 },
    {
      name: 'GET /v1/feed (20), API key, 1 read-time author followed',
      init: as(seeded.key, seeded.readerOfLarge),
      large: 1,
    },
  ];
  const rows: (string | number)[][] = [];
  const cannonRows: (string | number)[][] = [];
  try {
    for (const c of cases) {
      const send = async () => {
        const response = await fetch(`${local}/v1/feed?limit=20`, c.init);
        if (!response.ok) throw new Error(`${c.name}: ${response.status} ${await response.text()}`);
        const { data } = (await response.json()) as { data: { items: unknown[] } };
        if (data.items.length !== 20) throw new Error(`${c.name}: ${data.items.length} items`);
      };
      await send();
      const measured: DynamoDbCall[][] = [];
      const latencies: number[] = [];
      for (let i = 0; i < COUNTED; i++) {
        recorder.reset();
        const t = performance.now();
        await send();
        latencies.push(performance.now() - t);
        measured.push([...recorder.calls]);
      }
      latencies.sort((a, b) => a - b);
      // Every authenticated request reads its credential and acting profile in one BatchGetItem (the
      // reader's read-time authors ride in it), a session also its membership (GetItem); the
      // rate-window booking (UpdateItem) is amortised over many requests. The rest is the feed's.
      // The safety sets' Query (blocks and mutes, beside the credential) is every acting request's, not the feed's: safety.bench.ts counts it.
      const own = (calls: DynamoDbCall[]) =>
        calls.filter((call) => call.command === 'Query' && !call.partition?.startsWith('SAFETY#')).length +
        calls.filter((call) => call.command === 'BatchGetItem').length -
        1;
      const typical = (calls: DynamoDbCall[]) =>
        calls
          .filter((call) => call.command !== 'UpdateItem')
          .map((call) => call.command)
          .sort()
          .join(' + ');
      const feedCalls = mean(measured.map(own));
      const chains = measured.map((calls) =>
        sequentialRoundTrips(calls.filter((call) => call.command !== 'UpdateItem')),
      );
      const sequential = median(chains);
      // The inbox Query, the posts' BatchGetItem, the follows' of their authors; a Query per read-time author.
      const goalCalls = 3 + c.large;
      const goalSequential = 3 + c.large;
      rows.push([
        c.name,
        typical(measured[0]!),
        mean(measured.map((calls) => calls.filter((call) => call.command !== 'UpdateItem').length)).toFixed(2),
        feedCalls.toFixed(2),
        `${sequential} (max ${Math.max(...chains)})`,
        mean(measured.map((calls) => calls.reduce((sum, call) => sum + call.readUnits, 0))).toFixed(1),
        percentile(latencies, 50).toFixed(1),
        percentile(latencies, 99).toFixed(1),
        `feed's own ${goalCalls} calls, ${goalSequential} sequential`,
        verdict(
          feedCalls <= goalCalls + 0.05 && sequential <= goalSequential,
          `${feedCalls.toFixed(2)} calls, ${sequential} sequential`,
          "fold the extra reads into the page's BatchGetItem",
        ),
      ]);
      const result = await new Promise<autocannon.Result>((resolve, reject) =>
        autocannon(
          { url: `${local}/v1/feed?limit=20`, connections: CONNECTIONS, duration: SECONDS, headers: c.init.headers },
          (error, r) => (error ? reject(error as Error) : resolve(r)),
        ),
      );
      cannonRows.push([
        c.name,
        result.requests.average,
        result.latency.p50,
        result.latency.p99,
        result.non2xx + result.errors,
      ]);
    }
  } finally {
    served.close();
  }
  printTable(
    `Feed page: DynamoDB calls per page counted on the client over ${COUNTED} pages of each kind (rate-window bookings left out; ` +
      "the feed's own: all but the credential's BatchGetItem and a session's membership GetItem), the longest chain of calls one after " +
      'another (median), mean read units as DynamoDB Local reports them, serial latency in process',
    [
      'request',
      'calls',
      'calls (mean)',
      "feed's own calls",
      'sequential (median)',
      'RRU',
      'serial p50 ms',
      'p99 ms',
      'goal',
      '',
    ],
    rows,
  );
  printTable(
    `Feed page under load: autocannon, ${CONNECTIONS} connections, ${SECONDS} s each, in-process server on DynamoDB Local (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version})`,
    ['request', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'],
    cannonRows,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
