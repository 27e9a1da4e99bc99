/** Shared pieces of the benchmark scripts: a throw-away stack, latency statistics, a table printer. */
import { randomUUID } from 'node:crypto';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server-process.js';
import { startThrowawayStack, type ThrowawayStack } from '../../infra/local/throwaway-stack.js';
import { startCapacityProxy, type CapacityProxy } from './capacity-proxy.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';
import { GENEROUS_RATE_LIMITS } from '../support/global-setup.js';
import type { LocalHttpPorts } from '../../infra/local/http-server.js';

/** DynamoDB Local in memory plus the real local server, as `npm start -- --in-memory` runs them. */
export async function startStack(env: Record<string, string> = {}): Promise<ThrowawayStack> {
  // Every request is still counted (one UpdateItem, as in production), but never refused: the
  // load comes from one address.
  const stack = await startThrowawayStack({
    tableName: 'social-network-bench',
    env: { ...GENEROUS_RATE_LIMITS, ...env },
  });
  // For the store's client, which the benchmarks also use in-process.
  process.env.DYNAMODB_ENDPOINT = stack.dynamodbEndpoint;
  process.env.TABLE_NAME = stack.tableName;
  return stack;
}

export interface ProxiedStack {
  /** DynamoDB Local itself: what this process reads and writes goes uncounted. */
  dynamodbEndpoint: string;
  /** The counting proxy the server writes through (capacity-proxy.ts). */
  proxy: CapacityProxy;
  server: LocalServer;
  stop(): Promise<void>;
}

/**
 * DynamoDB Local in memory with the table, the counting proxy in front of it, and the local server
 * in a child process writing through the proxy, with the generous rate limits and `env`.
 */
export async function startProxiedStack(tableName: string, env: Record<string, string> = {}): Promise<ProxiedStack> {
  const dynamo = await startDynamoDbLocal({ inMemory: true, dataDir: '' });
  await ensureTable(dynamo.endpoint, tableName);
  const proxy = await startCapacityProxy(dynamo.endpoint);
  const server = await startLocalServer({
    DYNAMODB_ENDPOINT: proxy.endpoint,
    TABLE_NAME: tableName,
    ...GENEROUS_RATE_LIMITS,
    ...env,
  });
  return {
    dynamodbEndpoint: dynamo.endpoint,
    proxy,
    server,
    stop: async () => {
      await server.stop();
      await proxy.close();
      await dynamo.stop();
    },
  };
}

export interface CountedServer {
  base: string;
  /** Every DynamoDB call the server's store client made since the start (or the last `reset`). */
  recorder: ReturnType<typeof recordDynamoDbCalls>;
  close(): void;
}

/**
 * The local server's handlers served in this process, on the DynamoDB that DYNAMODB_ENDPOINT and
 * TABLE_NAME name, with every call of the store's client recorded (dynamodb-calls.ts). The rate
 * limits are the generous ones: every request counted, none refused (hundreds come from one credential).
 */
export async function startCountedServer(options: { ports?: LocalHttpPorts } = {}): Promise<CountedServer> {
  Object.assign(process.env, GENEROUS_RATE_LIMITS);
  // Imported here: the store's client reads the endpoint and table from the environment when loaded.
  const { db } = await import('../../shared/store/client.js');
  const { createHttpServer } = await import('../../infra/local/http-server.js');
  const recorder = recordDynamoDbCalls(db());
  const server = await createHttpServer(options);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    recorder,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LoopResult {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Runs `operation` from `concurrency` workers for `seconds`, like autocannon's connections. */
export async function loop(
  operation: (i: number) => Promise<unknown>,
  concurrency: number,
  seconds: number,
): Promise<LoopResult> {
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        try {
          await operation(counter++);
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

/**
 * How every benchmark table states a goal's outcome: MET, or NOT MET with the floor this build
 * measured and the next step that would move it, so no goal is left unmet without one.
 */
export const verdict = (met: boolean, floor: string, next: string) =>
  met ? 'MET' : `NOT MET: floor ${floor}; next: ${next}`;

export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const cells = [
    header,
    ...rows.map((r) => r.map((c) => (typeof c === 'number' ? (Number.isInteger(c) ? String(c) : c.toFixed(1)) : c))),
  ];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  for (const [index, row] of cells.entries()) {
    console.log(row.map((c, i) => String(c).padEnd(widths[i]!)).join('  '));
    if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/** One API request as a client sends it; the envelope's `data`, or an error naming the request. */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  profileId?: string,
) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(profileId ? { 'x-profile-id': profileId } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { ok: boolean; data: any };
  if (!json.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json.data;
}

export interface SeededUser {
  workspaceId: string;
  /** The user's session token. */
  session: string;
  /** The ids of the profiles created, in the order of their names. */
  profiles: string[];
}

/**
 * A user signed up through the API (so with its personal workspace), a session, and one profile
 * of `type` per name in that workspace (its username the name and a suffix of this run).
 */
export async function seedUser(
  base: string,
  names: readonly string[],
  type: 'human' | 'company' | 'agent' = 'human',
): Promise<SeededUser> {
  const email = `bench_${randomUUID()}@example.com`;
  const password = 'bench password';
  const { workspace } = await api(base, 'POST', '/v1/users', { email, password, name: 'Bench' });
  const { session } = await api(base, 'POST', '/v1/sessions', { email, password });
  const run = Date.now() % 100000;
  const profiles: string[] = [];
  for (const name of names) {
    const body = { type, username: `${name}_${run}`, name, call_name: name.slice(0, 1).toUpperCase() };
    profiles.push((await api(base, 'POST', '/v1/profiles', body, session.token)).id as string);
  }
  return { workspaceId: workspace.id as string, session: session.token as string, profiles };
}

/** An API key of the seeded user's workspace with these scopes, attached to these profiles. */
export async function seedKey(
  base: string,
  user: SeededUser,
  scopes: readonly string[],
  profileIds: readonly string[],
  name = 'bench',
): Promise<string> {
  const body = { name, scopes, profile_ids: profileIds };
  return (await api(base, 'POST', `/v1/workspaces/${user.workspaceId}/api-keys`, body, user.session)).key as string;
}
