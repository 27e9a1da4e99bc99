/**
 * `npm run bench` (MCP part), on a throw-away stack: the size of `tools/list` for an all:all key
 * (the default tool sets, and all of them),
 * and the throughput of a `get_post` tool call (2026-07-28, JSON answer) against the direct
 * `GET /v1/posts/{id}` with the same key on the same server, A/B alternated, median of rounds.
 * The MCP function's bundle size and import time are in bundles.bench.ts.
 */
import autocannon from 'autocannon';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import { api, printTable, startStack, verdict } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODERN = '2026-07-28';

async function seed(base: string) {
  const email = `mcpbench${Date.now()}@example.com`;
  const { workspace } = await api(base, 'POST', '/v1/users', { email, password: 'bench password', name: 'Bench' });
  const { session } = await api(base, 'POST', '/v1/sessions', { email, password: 'bench password' });
  const profile = await api(
    base,
    'POST',
    '/v1/profiles',
    { type: 'agent', username: `mcpbench_${Date.now() % 100000}`, name: 'Bench', call_name: 'B' },
    session.token,
  );
  const { key } = await api(
    base,
    'POST',
    `/v1/workspaces/${workspace.id}/api-keys`,
    { name: 'bench', scopes: ['all:all'], profile_ids: [profile.id] },
    session.token,
  );
  const { post } = await api(base, 'POST', '/v1/posts', { body: 'A post to read. '.repeat(20) }, key, profile.id);
  return { key: key as string, postId: post.id as string };
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

async function main() {
  const stack = await startStack(GENEROUS_RATE_LIMITS);
  try {
    const base = stack.server.baseUrl;
    const { key, postId } = await seed(base);

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

    // Warm both paths, then alternate so that the machine's load falls on both alike.
    await cannon({ ...direct, duration: 2 });
    await cannon({ ...viaMcp, duration: 2 });
    const directRps: number[] = [];
    const mcpRps: number[] = [];
    const p50 = { direct: [] as number[], mcp: [] as number[] };
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const d = await cannon(direct);
      const m = await cannon(viaMcp);
      directRps.push(d.requests.average);
      mcpRps.push(m.requests.average);
      p50.direct.push(d.latency.p50);
      p50.mcp.push(m.latency.p50);
      failures += d.non2xx + d.errors + m.non2xx + m.errors;
    }
    const ratio = median(mcpRps) / median(directRps);
    printTable(
      'MCP endpoint',
      ['measure', 'measured', 'goal', ''],
      [
        [
          'tools/list, default tool sets, all:all key (2026-07-28 JSON answer)',
          `${defaultBytes} bytes, ${defaultTools.length} tools`,
          '≤ 12,000 bytes',
          verdict(defaultBytes <= 12_000),
        ],
        [
          'tools/list, toolsets=all, all:all key (2026-07-28 JSON answer)',
          `${listBytes} bytes, ${tools.length} tools`,
          '< 40 KB',
          verdict(listBytes < 40 * 1024),
        ],
        ['get_post via MCP: requests/s (median of rounds)', median(mcpRps).toFixed(0), '', ''],
        ['GET /v1/posts/{id} direct, same key: requests/s', median(directRps).toFixed(0), '', ''],
        ['MCP / direct throughput', ratio.toFixed(2), '≥ 0.8', verdict(ratio >= 0.8)],
        ['latency p50 MCP / direct', `${median(p50.mcp)} / ${median(p50.direct)} ms`, '', ''],
        ['non-2xx or errors', failures, '0', verdict(failures === 0)],
      ],
    );
    console.log(`(${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections each, Node ${process.version})`);
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
