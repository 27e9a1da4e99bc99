/**
 * `npm run bench` (HTTP part), on a throw-away stack (DynamoDB Local in memory):
 * 1. DynamoDB calls per request, COUNTED: the same handlers served in this process with an SDK
 *    middleware on the store's client (dynamodb-calls.ts) recording every call, its consumed
 *    capacity, and the longest chain of calls waited for one after another, over a run of
 *    requests of each kind (the rate-window booking is amortised over many, so one request would
 *    not tell); with the requests' serial latency (the Lambda duration estimate of the cost table).
 * 2. The post read against a bare reference (node:http + one BatchGetItem, reference-server.ts),
 *    both as child processes on the same DynamoDB Local, A/B alternated, median of rounds.
 * 3. autocannon on the comment list and the reaction write beside the same DynamoDB work done by
 *    the store functions in a loop (db/http is our overhead over the database).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { keys } from '../../shared/store/keys.js';
import { nowIso } from '../../shared/domain/ids.js';
import {
  api,
  loop,
  printTable,
  seedKey,
  seedUser,
  startCountedServer,
  startStack,
  verdict,
  type LoopResult,
} from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PROFILES = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Seconds of load on each side of the post-read comparison before its rounds. */
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 6);
/** Requests of each kind whose DynamoDB calls are counted (and timed one after another). */
const COUNTED = Number(process.env.BENCH_COUNTED ?? 100);
/** The post read against its reference needs at least this ratio (median of the rounds). */
const POST_READ_GOAL = 0.9;
/** `BENCH_ONLY=post-read`: only the post read against its reference (the other parts take minutes). */
const ONLY_POST_READ = process.env.BENCH_ONLY === 'post-read';

async function seed(base: string) {
  const user = await seedUser(
    base,
    Array.from({ length: PROFILES }, (_, i) => `bench_${i}`),
    'agent',
  );
  const { session, profiles } = user;
  const key = await seedKey(base, user, ['all:all'], profiles);
  const { post } = await api(
    base,
    'POST',
    '/v1/posts',
    { body: 'A post to read, comment on and like. '.repeat(10) },
    key,
    profiles[0],
  );
  for (let i = 0; i < 20; i++) {
    await api(base, 'POST', `/v1/posts/${post.id}/comments`, { body: `Comment ${i}` }, key, profiles[i % PROFILES]);
  }
  return { key, session, profiles, postId: post.id as string };
}

function cannon(url: string, options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) =>
      error ? reject(error as Error) : resolve(result),
    );
  });
}

async function main() {
  const stack = await startStack();
  try {
    const base = stack.server.baseUrl;
    const { key, session, profiles, postId } = await seed(base);
    if (!ONLY_POST_READ) await countedRequests({ key, session, profiles, postId });
    await postReadAgainstReference(base, stack.server.process.pid!, stack.dynamodbEndpoint, stack.tableName, postId);
    if (ONLY_POST_READ) return;

    // Imported after startStack set DYNAMODB_ENDPOINT/TABLE_NAME for the store's client.
    const { getPost } = await import('../../shared/store/posts.js');
    const { listComments } = await import('../../shared/store/comments.js');
    const { getProfiles } = await import('../../shared/store/profiles.js');
    const { setReaction } = await import('../../shared/store/reactions.js');

    const reactionRequests = profiles.flatMap((profileId) =>
      [true, false].map((active) => ({
        method: 'PUT' as const,
        path: `/v1/posts/${postId}/reaction`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-profile-id': profileId },
        body: JSON.stringify({ reaction_type: 'like', active }),
      })),
    );

    const cases: {
      name: string;
      http: () => Promise<autocannon.Result>;
      db: () => Promise<LoopResult>;
      dbWork: string;
    }[] = [
      {
        name: 'GET /v1/posts/{id}/comments',
        http: () => cannon(`${base}/v1/posts/${postId}/comments`, {}),
        db: () =>
          loop(
            async () => {
              const [, page] = await Promise.all([getPost(postId), listComments(postId, { limit: 20 })]);
              await getProfiles(page.items.map((c) => c.profile_id));
            },
            CONNECTIONS,
            SECONDS,
          ),
        dbWork: 'Get(post) ‖ Query(20) + BatchGet(authors)',
      },
      {
        name: 'PUT /v1/posts/{id}/reaction',
        http: () => cannon(`${base}/v1/posts/${postId}/reaction`, { requests: reactionRequests }),
        db: () =>
          loop(
            async (i) => {
              const profileId = profiles[i % PROFILES]!;
              await setReaction(
                keys.postReaction(postId, profileId),
                { profile_id: profileId, reaction_type: 'like', created_at: nowIso(), automated: false },
                Math.floor(i / PROFILES) % 2 === 0,
              );
            },
            CONNECTIONS,
            SECONDS,
          ),
        dbWork: 'Put/Delete(reaction, conditional)',
      },
    ];

    const rows: (string | number)[][] = [];
    for (const c of cases) {
      const http = await c.http();
      const db = await c.db();
      const non2xx = http.non2xx + http.errors;
      rows.push([
        c.name,
        http.requests.average,
        http.latency.p50,
        http.latency.p99,
        non2xx,
        c.dbWork,
        db.perSecond,
        db.p50,
        db.p99,
        db.perSecond / http.requests.average,
      ]);
    }
    printTable(
      `HTTP API vs. the same DynamoDB work (${CONNECTIONS} connections, ${SECONDS} s each; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version})`,
      ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'DynamoDB work', 'db ops/s', 'db p50', 'db p99', 'db/http'],
      rows,
    );
  } finally {
    await stack.stop();
  }
}

interface Seeded {
  key: string;
  session: string;
  profiles: string[];
  postId: string;
}

/** Goal 1: DynamoDB calls of one request of each kind, recorded on the client, plus its serial latency. */
async function countedRequests({ key, session, profiles, postId }: Seeded) {
  // The handlers served in this process, on the same DynamoDB Local, so that their calls can be recorded.
  const served = await startCountedServer();
  const { base, recorder } = served;
  const viewer = profiles[1]!;
  const asKey = { authorization: `Bearer ${key}`, 'x-profile-id': viewer };
  const asSession = { authorization: `Bearer ${session}`, 'x-profile-id': viewer };
  const react = (active: boolean) => ({
    method: 'PUT',
    body: JSON.stringify({ reaction_type: 'like', active }),
    headers: { ...asKey, 'content-type': 'application/json' },
  });
  const cases: {
    name: string;
    path: string;
    init: () => RequestInit;
    goal: string;
    check: (requests: number, sequential: number) => boolean;
  }[] = [
    {
      name: 'GET post, anonymous',
      path: `/v1/posts/${postId}`,
      init: () => ({}),
      goal: '1 request (mean < 1.1)',
      check: (n) => n < 1.1,
    },
    {
      name: 'GET post, API key + X-Profile-Id',
      path: `/v1/posts/${postId}`,
      init: () => ({ headers: asKey }),
      goal: '≤ 2 sequential',
      check: (_, s) => s <= 2,
    },
    {
      name: 'GET post, session + X-Profile-Id',
      path: `/v1/posts/${postId}`,
      init: () => ({ headers: asSession }),
      goal: '≤ 2 sequential',
      check: (_, s) => s <= 2,
    },
    {
      name: 'GET comments (20), anonymous',
      path: `/v1/posts/${postId}/comments`,
      init: () => ({}),
      goal: '≤ 2 sequential',
      check: (_, s) => s <= 2,
    },
    {
      name: 'GET comments (20), API key + X-Profile-Id',
      path: `/v1/posts/${postId}/comments`,
      init: () => ({ headers: asKey }),
      goal: '≤ 2 sequential',
      check: (_, s) => s <= 2,
    },
    {
      name: 'GET comments (20), session + X-Profile-Id',
      path: `/v1/posts/${postId}/comments`,
      init: () => ({ headers: asSession }),
      goal: '≤ 2 sequential',
      check: (_, s) => s <= 2,
    },
    {
      name: 'PUT reaction (like)',
      path: `/v1/posts/${postId}/reaction`,
      init: () => react(true),
      goal: '≤ 3 requests',
      check: (n) => n <= 3,
    },
    {
      name: 'PUT reaction (unlike)',
      path: `/v1/posts/${postId}/reaction`,
      init: () => react(false),
      goal: '≤ 3 requests',
      check: (n) => n <= 3,
    },
  ];
  const rows: (string | number)[][] = [];
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  try {
    for (const c of cases) {
      const send = async () => {
        const response = await fetch(`${base}${c.path}`, c.init());
        if (!response.ok) throw new Error(`${c.name}: ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
      };
      await send(); // warm: module state, connections
      const measured: DynamoDbCall[][] = [];
      const latencies: number[] = [];
      for (let i = 0; i < COUNTED; i++) {
        // So that each measured like adds a like and each measured unlike removes one.
        if (c.name.includes('(like)')) await fetch(`${base}${c.path}`, react(false));
        if (c.name.includes('unlike')) await fetch(`${base}${c.path}`, react(true));
        recorder.reset();
        const t = performance.now();
        await send();
        latencies.push(performance.now() - t);
        measured.push([...recorder.calls]);
      }
      latencies.sort((a, b) => a - b);
      const requests = mean(measured.map((calls) => calls.length));
      // The median: a call that merely starts after an unrelated one ended (e.g. the authors read
      // after a slow membership read it never waited for) lengthens a chain now and then.
      const chains = measured.map((calls) => sequentialRoundTrips(calls)).sort((a, b) => a - b);
      const sequential = chains[Math.floor(chains.length / 2)]!;
      const read = mean(measured.map((calls) => calls.reduce((sum, call) => sum + call.readUnits, 0)));
      const write = mean(measured.map((calls) => calls.reduce((sum, call) => sum + call.writeUnits, 0)));
      // The rate-window booking is the only UpdateItem these requests send (a like writes its own reaction item only).
      const bookings = measured.filter((calls) => calls.some((call) => call.command === 'UpdateItem')).length;
      const typical = mostCommon(
        measured.map((calls) =>
          calls
            .filter((call) => call.command !== 'UpdateItem')
            .map((call) => call.command)
            .sort()
            .join(' + '),
        ),
      );
      rows.push([
        c.name,
        `${typical} (+ UpdateItem in ${bookings}/${COUNTED})`,
        `${requests.toFixed(2)}x`,
        `${sequential} (max ${chains.at(-1)})`,
        read,
        write,
        latencies[Math.floor(latencies.length / 2)]!,
        c.goal,
        verdict(
          c.check(requests, sequential),
          `${requests.toFixed(2)} requests, ${sequential} sequential`,
          'join the reads into one BatchGetItem and run independent ones side by side',
        ),
      ]);
    }
  } finally {
    served.close();
  }
  printTable(
    `Goal 1: DynamoDB calls per request, counted on the client over ${COUNTED} consecutive requests of each kind from a fresh process: mean requests per request, ` +
      'the longest chain of calls one after another (median), mean read/write units as DynamoDB Local reports them, serial p50 in-process. The rate-window booking (UpdateItem) is ' +
      'amortised: a process books 1, 1, 2, 4, … requests of a window at once, up to a tenth of the limit, and admits the rest with no request',
    [
      'request',
      'calls (without the booking)',
      'requests (mean)',
      'sequential (median)',
      'RRU',
      'WRU',
      'serial p50 ms',
      'goal',
      '',
    ],
    rows,
  );
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

function startReference(endpoint: string, tableName: string): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/reference-server.ts'], {
    env: { ...process.env, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve({ url: match[1]!, pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`reference server exited with ${code}`)));
  });
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * A process's CPU time so far (user + system, µs): what its own process.cpuUsage() would say,
 * read from outside through /proc, so that the servers need no hook of their own.
 */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th
  // field of the line, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

/** A server process's CPU over a stretch without requests (µs per second): its timers, e.g. the local stream pollers. */
async function idleCpuPerSecond(pid: number, seconds = 3): Promise<number> {
  const before = cpuMicros(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return (cpuMicros(pid) - before) / seconds;
}

/**
 * Goal 2: the post read against node:http + one BatchGetItem, alternated, median of rounds. Judged
 * by CPU per request (what Lambda bills, and what load elsewhere on this shared machine scrambles far
 * less than throughput): each server's CPU over a run, less what it spends idle over the same time
 * (the local runtime's stream pollers, which no Lambda of the route runs), divided by its requests.
 */
async function postReadAgainstReference(
  base: string,
  serverPid: number,
  endpoint: string,
  tableName: string,
  postId: string,
) {
  const reference = await startReference(endpoint, tableName);
  try {
    const ours: number[] = [];
    const bare: number[] = [];
    const oursCpu: number[] = [];
    const bareCpu: number[] = [];
    const rows: (string | number)[][] = [];
    // DynamoDB Local's JVM and both servers' JITs warm up over the first thousands of requests:
    // rounds taken before that measure the warm-up, whichever side runs in it.
    for (let i = 0; i < 2; i++) {
      await cannon(`${base}/v1/posts/${postId}`, { duration: WARM_SECONDS / 2 });
      await cannon(`${reference.url}/v1/posts/${postId}`, { duration: WARM_SECONDS / 2 });
    }
    const idle = { api: await idleCpuPerSecond(serverPid), reference: await idleCpuPerSecond(reference.pid) };
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate which goes first, so neither always gets the warmer (or the noisier) slot.
      const order = round % 2 === 1 ? ['api', 'reference'] : ['reference', 'api'];
      const result: Record<string, autocannon.Result> = {};
      const cpu: Record<string, number> = {};
      for (const which of order) {
        const pid = which === 'api' ? serverPid : reference.pid;
        const before = cpuMicros(pid);
        const started = performance.now();
        result[which] = await cannon(`${which === 'api' ? base : reference.url}/v1/posts/${postId}`, {});
        const seconds = (performance.now() - started) / 1000;
        const busy = cpuMicros(pid) - before - idle[which as 'api' | 'reference'] * seconds;
        cpu[which] = busy / result[which].requests.total;
      }
      const api = result.api!;
      const ref = result.reference!;
      ours.push(api.requests.average);
      bare.push(ref.requests.average);
      oursCpu.push(cpu.api!);
      bareCpu.push(cpu.reference!);
      rows.push([
        round,
        api.requests.average,
        api.latency.p50,
        api.non2xx + api.errors,
        Math.round(cpu.api!),
        ref.requests.average,
        ref.latency.p50,
        Math.round(cpu.reference!),
        (api.requests.average / ref.requests.average).toFixed(2),
        (cpu.reference! / cpu.api!).toFixed(2),
      ]);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Each round's two runs follow each other: their ratio is paired, so load that drifts between
    // rounds on the shared machine cancels out of it (a ratio of the two sides' medians would not).
    const ratio = median(ours.map((rps, i) => rps / bare[i]!));
    const cpuRatio = median(bareCpu.map((cpu, i) => cpu / oursCpu[i]!));
    rows.push([
      'median',
      median(ours),
      '',
      '',
      Math.round(median(oursCpu)),
      median(bare),
      '',
      Math.round(median(bareCpu)),
      ratio.toFixed(2),
      cpuRatio.toFixed(2),
    ]);
    printTable(
      `Goal 2: GET /v1/posts/{id} (anonymous) vs. node:http + one BatchGetItem on the same DynamoDB Local (${CONNECTIONS} connections, ${WARM_SECONDS} s of warm-up each, then ${SECONDS} s per run, ${ROUNDS} rounds A/B alternated; CPU µs per request less idle: api ${Math.round(idle.api)}, reference ${Math.round(idle.reference)} µs/s)`,
      [
        'round',
        'api req/s',
        'p50 ms',
        'non-2xx',
        'api CPU µs/req',
        'reference req/s',
        'p50 ms',
        'reference CPU µs/req',
        'throughput api/ref',
        'CPU ref/api',
      ],
      rows,
    );
    printTable(
      'Goal 2: the post read against its reference',
      ['measure', 'measured', 'goal', ''],
      [
        [
          `reference/api CPU per request, median of ${ROUNDS} rounds' ratios (medians ${Math.round(median(oursCpu))} vs ${Math.round(median(bareCpu))} µs)`,
          `${cpuRatio.toFixed(2)}×`,
          `≥ ${POST_READ_GOAL}×`,
          verdict(
            cpuRatio >= POST_READ_GOAL,
            `${cpuRatio.toFixed(2)}×`,
            "on a quiet machine first (load < 2); then the chain's remaining awaits (middy runs each before through a promise)",
          ),
        ],
        [
          `api/reference throughput, median of ${ROUNDS} rounds' ratios (load-sensitive)`,
          `${ratio.toFixed(2)}×`,
          '',
          '',
        ],
      ],
    );
  } finally {
    reference.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
