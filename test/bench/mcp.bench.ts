/**
 * `npm run bench` (MCP part), on a throw-away stack: the size of `tools/list` for an all:all key
 * (the default tool sets, and all of them),
 * and the throughput of a `get_post` tool call (2026-07-28, JSON answer) against the direct
 * `GET /v1/posts/{id}` with the same key on the same server, A/B alternated, median of rounds.
 * The same tool call with an OAuth access token (all:all, the same profile; obtained over raw
 * HTTP as a client would) against it with the API key: the DynamoDB calls of each, counted on
 * the store's client of the handlers served in this process (dynamodb-calls.ts), and the
 * throughput of each, alternated with the others.
 * The MCP function's bundle size and import time are in bundles.bench.ts.
 */
import autocannon from 'autocannon';
import { sequentialRoundTrips, type DynamoDbCall } from '../support/dynamodb-calls.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { oauthFlow } from '../support/oauth.js';
import { api, printTable, seedKey, seedUser, startCountedServer, startStack, verdict } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const MODERN = '2026-07-28';
/** Tool calls of each credential whose DynamoDB calls are counted. */
const COUNTED = Number(process.env.BENCH_COUNTED ?? 50);
/** The OAuth call's throughput against the API key's needs at least this ratio (issue 27). */
const OAUTH_GOAL = 0.95;

async function seed(base: string) {
  const user = await seedUser(base, ['mcpbench'], 'agent');
  const [profile] = user.profiles as [string];
  const key = await seedKey(base, user, ['all:all'], [profile]);
  const { post } = await api(base, 'POST', '/v1/posts', { body: 'A post to read. '.repeat(20) }, key, profile);
  // The same workspace, profile and scopes approved for an MCP client, through the consent call and the token endpoint.
  const flow = oauthFlow(base);
  const approved = await flow.approvedCode(user.session, {
    workspace_id: user.workspaceId,
    profile_ids: [profile],
    scopes: ['all:all'],
  });
  const exchanged = await flow.exchange(approved);
  if (exchanged.status !== 200) throw new Error(`code exchange failed: ${JSON.stringify(exchanged.body)}`);
  return { key, accessToken: exchanged.body.access_token as string, postId: post.id as string };
}

/** A 2026-07-28 request: the body's protocol claim and the headers that must agree with it. */
function modern(method: string, params: Record<string, unknown>, key: string, name?: string) {
  return {
    method: 'POST' as const,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  };
}

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options }, (error, result) =>
      error ? reject(error as Error) : resolve(result),
    );
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
/** The rate-window booking (UpdateItem) is amortised over a process's requests: counted apart. */
const isBooking = (call: DynamoDbCall) => call.command === 'UpdateItem';

interface CallCount {
  /** Mean DynamoDB calls of one tool call, without the booking. */
  calls: number;
  /** The commonest set of calls, as command names. */
  typical: string;
  /** The longest chain of calls one after another (median). */
  sequential: number;
  /** Tool calls of COUNTED that booked the rate window. */
  bookings: number;
  /** Median time of one tool call, the calls sent one after another. */
  serialP50: number;
  /** This process's CPU time per tool call (the server's handlers and the client's fetch). */
  cpuMs: number;
  /** Mean read units of one tool call, as DynamoDB Local reports them. */
  readUnits: number;
}

/** The DynamoDB calls of one `get_post` tool call with `credential`, served in this process. */
async function countCalls(counted: Awaited<ReturnType<typeof startCountedServer>>, postId: string, credential: string) {
  const call = modern('tools/call', { name: 'get_post', arguments: { post_id: postId } }, credential, 'get_post');
  const send = async () => {
    const response = await fetch(`${counted.base}/mcp`, call);
    const answer = (await response.json()) as { result?: { isError?: boolean } };
    if (!response.ok || !answer.result || answer.result.isError)
      throw new Error(`get_post failed: ${response.status} ${JSON.stringify(answer)}`);
  };
  await send(); // warm: module state, connections
  const runs: DynamoDbCall[][] = [];
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < COUNTED; i++) {
    counted.recorder.reset();
    const started = performance.now();
    await send();
    latencies.push(performance.now() - started);
    runs.push([...counted.recorder.calls]);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const shapes = runs.map((calls) =>
    calls
      .filter((c) => !isBooking(c))
      .map((c) => c.command)
      .sort()
      .join(' + '),
  );
  return {
    calls: mean(runs.map((calls) => calls.filter((c) => !isBooking(c)).length)),
    typical: mostCommon(shapes),
    sequential: median(runs.map((calls) => sequentialRoundTrips(calls.filter((c) => !isBooking(c))))),
    bookings: runs.filter((calls) => calls.some(isBooking)).length,
    serialP50: median(latencies),
    cpuMs: (cpu.user + cpu.system) / 1000 / COUNTED,
    readUnits: mean(runs.map((calls) => calls.reduce((sum, c) => sum + c.readUnits, 0))),
  } satisfies CallCount;
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

async function main() {
  const stack = await startStack(GENEROUS_RATE_LIMITS);
  try {
    const base = stack.server.baseUrl;
    const { key, accessToken, postId } = await seed(base);

    const list = modern('tools/list', {}, key);
    const listed = await fetch(`${base}/mcp?toolsets=all`, list);
    const listText = await listed.text();
    const tools = (JSON.parse(listText) as { result: { tools: unknown[] } }).result.tools;
    const listBytes = Buffer.byteLength(listText);
    // Without a selection: the default tool sets (posts, feed, notifications).
    const defaultText = await (await fetch(`${base}/mcp`, list)).text();
    const defaultTools = (JSON.parse(defaultText) as { result: { tools: unknown[] } }).result.tools;
    const defaultBytes = Buffer.byteLength(defaultText);

    const call = modern('tools/call', { name: 'get_post', arguments: { post_id: postId } }, key, 'get_post');
    const check = (await (await fetch(`${base}/mcp`, call)).json()) as { result: { isError?: boolean } };
    if (check.result.isError) throw new Error(`get_post failed: ${JSON.stringify(check)}`);
    const direct = { url: `${base}/v1/posts/${postId}`, headers: { authorization: `Bearer ${key}` } };
    const viaMcp = { url: `${base}/mcp`, ...call };
    const oauthCall = modern(
      'tools/call',
      { name: 'get_post', arguments: { post_id: postId } },
      accessToken,
      'get_post',
    );
    const oauthCheck = (await (await fetch(`${base}/mcp`, oauthCall)).json()) as { result?: { isError?: boolean } };
    if (!oauthCheck.result || oauthCheck.result.isError)
      throw new Error(`get_post with OAuth failed: ${JSON.stringify(oauthCheck)}`);
    const viaOAuth = { url: `${base}/mcp`, ...oauthCall };

    // The handlers in this process, on the stack's DynamoDB Local, so that their calls can be recorded.
    const counted = await startCountedServer();
    let keyCalls: CallCount;
    let oauthCalls: CallCount;
    try {
      keyCalls = await countCalls(counted, postId, key);
      oauthCalls = await countCalls(counted, postId, accessToken);
    } finally {
      counted.close();
    }

    // Warm every path, then alternate so that the machine's load falls on all alike.
    await cannon({ ...direct, duration: 2 });
    await cannon({ ...viaMcp, duration: 2 });
    await cannon({ ...viaOAuth, duration: 2 });
    const directRps: number[] = [];
    const mcpRps: number[] = [];
    const oauthRps: number[] = [];
    const p50 = { direct: [] as number[], mcp: [] as number[], oauth: [] as number[] };
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Which MCP credential goes first alternates too: neither always gets the warmer slot.
      const d = await cannon(direct);
      const [m, o] =
        round % 2 === 0
          ? [await cannon(viaMcp), await cannon(viaOAuth)]
          : await cannon(viaOAuth).then(async (first) => [await cannon(viaMcp), first] as const);
      directRps.push(d.requests.average);
      mcpRps.push(m.requests.average);
      oauthRps.push(o.requests.average);
      p50.direct.push(d.latency.p50);
      p50.mcp.push(m.latency.p50);
      p50.oauth.push(o.latency.p50);
      failures += d.non2xx + d.errors + m.non2xx + m.errors + o.non2xx + o.errors;
    }
    const ratio = median(mcpRps) / median(directRps);
    // Each round's two MCP runs follow each other: their ratio is paired, so load that drifts
    // between rounds on the shared machine cancels out of it.
    const oauthRatio = median(oauthRps.map((rps, round) => rps / mcpRps[round]!));
    const sameCalls = keyCalls.typical === oauthCalls.typical && keyCalls.calls === oauthCalls.calls;
    const describe = (c: CallCount) =>
      `${c.calls.toFixed(2)}: ${c.typical}, ${c.sequential} sequential (+ UpdateItem in ${c.bookings}/${COUNTED}), ${c.readUnits.toFixed(1)} RRU; serial p50 ${c.serialP50.toFixed(1)} ms, CPU ${c.cpuMs.toFixed(2)} ms`;
    printTable(
      'MCP endpoint',
      ['measure', 'measured', 'goal', ''],
      [
        [
          'tools/list, default tool sets, all:all key (2026-07-28 JSON answer)',
          `${defaultBytes} bytes, ${defaultTools.length} tools`,
          '≤ 12,000 bytes',
          verdict(
            defaultBytes <= 12_000,
            `${defaultBytes} bytes`,
            'shorten the default tools’ descriptions and schemas',
          ),
        ],
        [
          'tools/list, toolsets=all, all:all key (2026-07-28 JSON answer)',
          `${listBytes} bytes, ${tools.length} tools`,
          '≤ 64,000 bytes',
          verdict(
            listBytes <= 64_000,
            `${listBytes} bytes`,
            'shorten the descriptions, or move tools out of the default sets',
          ),
        ],
        ['get_post via MCP: requests/s (median of rounds)', median(mcpRps).toFixed(0), '', ''],
        ['GET /v1/posts/{id} direct, same key: requests/s', median(directRps).toFixed(0), '', ''],
        [
          'MCP / direct throughput',
          ratio.toFixed(2),
          '≥ 0.8',
          verdict(
            ratio >= 0.8,
            ratio.toFixed(2),
            "profile a tool call's CPU beside the direct route's and cut the MCP layer's share",
          ),
        ],
        ['latency p50 MCP / direct', `${median(p50.mcp)} / ${median(p50.direct)} ms`, '', ''],
        ['get_post via MCP, API key: DynamoDB calls (mean; booking apart)', describe(keyCalls), '', ''],
        [
          'get_post via MCP, OAuth access token: DynamoDB calls',
          describe(oauthCalls),
          'the same as the API key',
          verdict(sameCalls, describe(oauthCalls), 'read the grant in the request’s BatchGetItem, as an API key is'),
        ],
        ['get_post via MCP, OAuth access token: requests/s', median(oauthRps).toFixed(0), '', ''],
        [
          'OAuth token / API key throughput (median of the rounds’ ratios)',
          oauthRatio.toFixed(2),
          `≥ ${OAUTH_GOAL}`,
          verdict(oauthRatio >= OAUTH_GOAL, oauthRatio.toFixed(2), 'profile the token check beside the key check'),
        ],
        ['latency p50 OAuth / API key', `${median(p50.oauth)} / ${median(p50.mcp)} ms`, '', ''],
        [
          'non-2xx or errors',
          failures,
          '0',
          verdict(failures === 0, String(failures), 'read the failing answers in the log'),
        ],
      ],
    );
    console.log(
      `(${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections each; calls counted over ${COUNTED} tool calls of each credential; Node ${process.version})`,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
