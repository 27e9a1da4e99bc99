/**
 * `npx tsx test/bench/audit.bench.ts`: what the audit log costs a write and how soon it lists it,
 * through the real local runtime (HTTP → the write with its stamp; stream poller → the audit
 * recorder), with DynamoDB Local behind the counting proxy (capacity-proxy.ts). Reports:
 * - table calls of a post create, and how many of them are sequential: the stamp rides on the
 *   post's own write (goal: no added call, so no added sequential round trip);
 * - write units of a post create with its stamp, and without it (the same items less the stamp's
 *   bytes, rounded per KB as DynamoDB bills them), and the recorder's units per entry;
 * - an unlike (a lone delete): its stamp needs a mark in one transaction, what that costs;
 * - from the write's answer to its entry in GET /audit-log: p50 and p99 (goal ≤ 2 s).
 * Not a test: it measures, it asserts nothing.
 */
import os from 'node:os';
import type { CountedWrite } from './capacity-proxy.js';
import { api, percentile, printTable, seedKey, seedUser, startProxiedStack, verdict } from './support.js';

const WRITES = Number(process.env.BENCH_AUDIT_WRITES ?? 100);
const TABLE_NAME = 'social-network-bench-audit';
const GOALS = { addedCalls: 0, listedMs: 2000 };

/** The DynamoDB size of an attribute value as the wire has it (names and values in UTF-8, numbers ~ digits). */
function sizeOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return Buffer.byteLength(String(value));
  const typed = value as Record<string, unknown>;
  if ('S' in typed) return Buffer.byteLength(String(typed.S));
  if ('N' in typed) return String(typed.N).length;
  if ('BOOL' in typed || 'NULL' in typed) return 1;
  if ('M' in typed)
    return (
      3 +
      Object.entries(typed.M as Record<string, unknown>).reduce((s, [k, v]) => s + Buffer.byteLength(k) + sizeOf(v), 0)
    );
  if ('L' in typed) return 3 + (typed.L as unknown[]).reduce<number>((s, v) => s + 1 + sizeOf(v), 0);
  return JSON.stringify(value).length;
}

const itemSize = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((s, [k, v]) => s + Buffer.byteLength(k) + sizeOf(v), 0);

/** The stamped items of a write (a Put's item or a transaction's Puts) with their size and the stamp's. */
function stampedPuts(write: CountedWrite): { size: number; stamp: number; transact: boolean }[] {
  const puts =
    write.operation === 'PutItem'
      ? [write.input.Item as Record<string, unknown>]
      : write.operation === 'TransactWriteItems'
        ? (write.input.TransactItems as { Put?: { Item: Record<string, unknown> } }[]).flatMap((t) =>
            t.Put ? [t.Put.Item] : [],
          )
        : [];
  return puts
    .filter((item) => item.written_by)
    .map((item) => ({
      size: itemSize(item),
      stamp: Buffer.byteLength('written_by') + sizeOf(item.written_by),
      transact: write.operation === 'TransactWriteItems',
    }));
}

async function main() {
  const stack = await startProxiedStack(TABLE_NAME);
  const { proxy, server } = stack;
  try {
    const base = server.baseUrl;
    const user = await seedUser(base, ['writer', 'other']);
    const [writer, other] = user.profiles as [string, string];
    const key = await seedKey(base, user, ['posts:write', 'posts:read'], [writer, other]);
    const listed = async (requestId: string) => {
      const page = await api(
        base,
        'GET',
        `/v1/workspaces/${user.workspaceId}/audit-log?limit=20`,
        undefined,
        user.session,
      );
      return (page.items as { request_id: string }[]).some((e) => e.request_id === requestId);
    };
    const create = async (body: string) => {
      const response = await fetch(`${base}/v1/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-profile-id': writer },
        body: JSON.stringify({ body }),
      });
      const json = (await response.json()) as { data: { post: { id: string } } };
      return { requestId: response.headers.get('x-request-id')!, postId: json.data.post.id };
    };

    // One create alone, its table calls counted (the rate window's booking is the request's own).
    await create('warm-up');
    await new Promise((r) => setTimeout(r, 500));
    proxy.reset();
    await create('counted');
    const callsOfOne = proxy.calls().filter((c) => !c.pk.startsWith('AUDIT#') && c.operation !== 'Query');
    const auditCallsInRequest = proxy.calls().filter((c) => c.pk.startsWith('AUDIT')).length;
    await new Promise((r) => setTimeout(r, 1500));

    proxy.reset();
    const lags: number[] = [];
    let stampedUnits = 0;
    let unstampedUnits = 0;
    let stampBytes = 0;
    for (let i = 0; i < WRITES; i++) {
      const { requestId } = await create(`post ${i} ${'lorem ipsum '.repeat(20)}`);
      const answered = performance.now();
      while (!(await listed(requestId))) await new Promise((r) => setTimeout(r, 10));
      lags.push(performance.now() - answered);
    }
    const writes = proxy.writes();
    for (const write of writes)
      for (const put of stampedPuts(write)) {
        const factor = put.transact ? 2 : 1;
        stampedUnits += Math.ceil(put.size / 1024) * factor;
        unstampedUnits += Math.ceil((put.size - put.stamp) / 1024) * factor;
        stampBytes += put.stamp;
      }
    const auditEntries = writes.filter((w) =>
      String((w.input.Item as { pk?: { S?: string } } | undefined)?.pk?.S).startsWith('AUDIT#'),
    );
    const auditUnits = auditEntries.reduce((s, w) => s + w.units, 0);
    const createUnits = writes
      .filter(
        (w) =>
          !String((w.input.Item as { pk?: { S?: string } } | undefined)?.pk?.S).startsWith('AUDIT#') &&
          !String((w.input.Key as { pk?: { S?: string } } | undefined)?.pk?.S ?? '').startsWith('RATELIMIT#'),
      )
      .reduce((s, w) => s + w.units, 0);

    // An unlike: a lone DeleteItem of the reaction becomes the delete and an audit mark in one transaction.
    const liked = await create('to like');
    await api(base, 'PUT', `/v1/posts/${liked.postId}/reaction`, { reaction_type: 'like', active: true }, key, other);
    await new Promise((r) => setTimeout(r, 500));
    proxy.reset();
    await api(base, 'PUT', `/v1/posts/${liked.postId}/reaction`, { reaction_type: 'like', active: false }, key, other);
    const unlike = proxy
      .writes()
      .filter((w) => w.operation !== 'UpdateItem' || !JSON.stringify(w.input.Key).includes('RATELIMIT'));
    const unlikeUnits = unlike.filter((w) => w.operation === 'TransactWriteItems').reduce((s, w) => s + w.units, 0);

    lags.sort((a, b) => a - b);
    const p99 = percentile(lags, 99);
    printTable(
      `Audit log: ${WRITES} post creates over HTTP on the local runtime (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}); write units as DynamoDB Local reports them`,
      ['measure', 'value', 'goal', ''],
      [
        [
          'table calls of one post create (reads and writes)',
          `${callsOfOne.length}: ${callsOfOne.map((c) => c.operation).join(', ')}; audit calls in the request: ${auditCallsInRequest}`,
          `+${GOALS.addedCalls}`,
          verdict(
            auditCallsInRequest === GOALS.addedCalls,
            `${auditCallsInRequest} audit calls`,
            'the stamp rides on the write; nothing to move',
          ),
        ],
        [
          'write units of the stamped items, per create: with the stamp / without',
          `${(stampedUnits / WRITES).toFixed(2)} / ${(unstampedUnits / WRITES).toFixed(2)} (stamp ${(stampBytes / WRITES).toFixed(0)} B per write)`,
          '',
          '',
        ],
        ['write units of a create (its own writes, rate window aside)', (createUnits / WRITES).toFixed(2), '', ''],
        ['write units of the recorder, per entry', (auditUnits / Math.max(1, auditEntries.length)).toFixed(2), '', ''],
        [
          'write units of an unlike (delete + audit mark, one transaction)',
          unlikeUnits.toFixed(2),
          '',
          'a plain DeleteItem: 1',
        ],
        [
          'answer → listed in GET /audit-log',
          `p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${lags.at(-1)!.toFixed(0)} ms`,
          `p99 ≤ ${GOALS.listedMs} ms`,
          verdict(
            p99 <= GOALS.listedMs,
            `${p99.toFixed(0)} ms`,
            "the local poller's interval (infra/local/stream-poller.ts)",
          ),
        ],
      ],
    );
  } finally {
    await stack.stop();
  }
}

await main();
