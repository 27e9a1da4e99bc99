/**
 * `npm run bench:webhooks`: one event fanned out to 100 endpoints on local receivers, through the
 * real local runtime (stream poller → fan-out → in-process queue → sender → HTTP). Reports
 * deliveries per second and the p50/p99 time from the change (the outbox write) to the receiver.
 * Not a test: it measures, it asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/store/client.js';
import { outboxItem } from '../../shared/store/outbox.js';
import { percentile, printTable, startStack } from './support.js';

const ENDPOINTS = 100;
const ROUNDS = 5;

async function api(baseUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: any };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function main() {
  // One workspace with ENDPOINTS endpoints: the per-workspace cap and in-flight limit raised to fit,
  // so this measures the pipeline's throughput (the leases are still taken), not the fairness limits.
  const stack = await startStack({
    WEBHOOK_URL_POLICY: 'allow-local',
    WEBHOOK_MAX_ACTIVE_ENDPOINTS: String(ENDPOINTS),
    WEBHOOK_WORKSPACE_MAX_IN_FLIGHT: String(ENDPOINTS),
  });
  const arrivals = new Map<string, number[]>();
  const servers: Server[] = [];
  try {
    const base = stack.server.baseUrl;
    const email = `bench_${randomUUID()}@example.com`;
    const { workspace } = await api(base, 'POST', '/v1/users', { email, password: 'correct horse battery', name: 'Bench' });
    const { session } = await api(base, 'POST', '/v1/sessions', { email, password: 'correct horse battery' });
    const profile = await api(base, 'POST', '/v1/profiles', { type: 'company', username: `bench_${Date.now() % 1e9}`, name: 'Bench', call_name: 'Bench' }, session.token);

    for (let i = 0; i < ENDPOINTS; i++) {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: string };
          const list = arrivals.get(id) ?? [];
          list.push(performance.now());
          arrivals.set(id, list);
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await api(base, 'POST', `/v1/workspaces/${workspace.id}/webhook-endpoints`, { name: `bench ${i}`, url, event_types: ['profile.followed'], profile_ids: [profile.id] }, session.token);
    }

    const latencies: number[] = [];
    const rows: (string | number)[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const event = { id: randomUUID(), type: 'profile.followed' as const, profile_id: profile.id, workspace_id: workspace.id, created_at: new Date().toISOString(), data: {} };
      const started = performance.now();
      await db().send(new TransactWriteCommand({ TransactItems: [outboxItem(event)] }));
      const deadline = Date.now() + 60_000;
      while ((arrivals.get(event.id)?.length ?? 0) < ENDPOINTS) {
        if (Date.now() > deadline) throw new Error(`round ${round}: only ${arrivals.get(event.id)?.length ?? 0} of ${ENDPOINTS} deliveries arrived`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const times = arrivals.get(event.id)!.map((t) => t - started).sort((a, b) => a - b);
      latencies.push(...times);
      const last = times[times.length - 1]!;
      rows.push([round, ENDPOINTS, Math.round((ENDPOINTS / last) * 1000), Math.round(times[0]!), Math.round(percentile(times, 50)), Math.round(percentile(times, 99)), Math.round(last)]);
      await new Promise((r) => setTimeout(r, 500));
    }
    latencies.sort((a, b) => a - b);
    printTable(`Webhook fan-out: 1 event → ${ENDPOINTS} endpoints (local runtime, DynamoDB Local)`, ['round', 'deliveries', 'deliveries/s', 'first ms', 'p50 ms', 'p99 ms', 'last ms'], rows);
    const perRound = rows.map((r) => Number(r[2])).sort((a, b) => a - b);
    console.log(
      `\nOverall: ${latencies.length} deliveries; median ${perRound[Math.floor(perRound.length / 2)]} deliveries/s per round; ` +
        `change → receiver p50 ${Math.round(percentile(latencies, 50))} ms, p99 ${Math.round(percentile(latencies, 99))} ms.`,
    );
  } finally {
    for (const server of servers) server.close();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
