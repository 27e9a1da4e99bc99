/**
 * `npm run bench:live`: the per-profile event log and its stream on the local runtime (issue 34).
 * - action to SSE event: a message sent, until the recipient's open stream shows it (p50/p95;
 *   goal p95 ≤ 1 s), through the real pipeline (HTTP, DynamoDB Local, stream poller, event log);
 * - write units per event logged: the writer run in process on the same table, its DynamoDB
 *   calls counted by their own ConsumedCapacity (goal: one item, no index: 1 unit for an event
 *   under 1 KB);
 * - idle SSE clients one local server holds (goal ≥ 1,000 without errors): all open at once on
 *   one profile, then one event that every one of them must receive.
 */
import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { Agent } from 'undici';
import { newMessage } from '../../shared/domain/social.js';
import { logEventsFromStream } from '../../shared/live/from-stream.js';
import { db } from '../../shared/store/client.js';
import { entities } from '../../shared/store/entities.js';
import { itemOf } from '../../shared/store/items.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';
import { api, percentile, printTable, seedKey, seedUser, startStack, verdict } from './support.js';

const LATENCY_SAMPLES = 100;
const WRITER_EVENTS = 200;
const IDLE_CLIENTS = 1000;
const GOALS = { p95Ms: 1000, unitsPerEvent: 1, idleClients: 1000 };

/** Connections without a per-origin cap, as a thousand separate clients would be. */
const clients = new Agent({ connections: null, pipelining: 0, bodyTimeout: 0, headersTimeout: 30_000 });

interface OpenStream {
  status: number;
  /** Resolves with the first `data:` line that contains `needle`. */
  waitFor(needle: string): Promise<void>;
  close(): void;
}

async function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
    dispatcher: clients,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const waiters: { needle: string; done: () => void }[] = [];
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      text += chunk.value;
      for (const waiter of [...waiters])
        if (text.includes(waiter.needle)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.done();
        }
    }
  })();
  return {
    status: response.status,
    waitFor: (needle) => new Promise((done) => (text.includes(needle) ? done() : waiters.push({ needle, done }))),
    close: () => controller.abort(),
  };
}

async function main() {
  const stack = await startStack();
  const base = stack.server.baseUrl;
  try {
    const user = await seedUser(base, ['reader', 'sender']);
    const [reader, sender] = user.profiles as [string, string];
    const key = await seedKey(base, user, ['messages:write', 'events:read'], user.profiles);
    const headers = { authorization: `Bearer ${key}`, 'x-profile-id': reader };
    const send = (body: string) =>
      api(base, 'POST', '/v1/messages', { recipient_profile_id: reader, body }, key, sender);

    // 1. Action to SSE event.
    const stream = await openStream(`${base}/v1/stream`, headers);
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const body = `latency-${i}-${randomUUID()}`;
      const started = performance.now();
      const shown = stream.waitFor(body);
      await send(body);
      await shown;
      latencies.push(performance.now() - started);
    }
    stream.close();
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);

    // 2. Write units per event logged (the writer in process, on the stack's table).
    const recorder = recordDynamoDbCalls(db());
    const via = { kind: 'api_key' } as const;
    const records = Array.from({ length: WRITER_EVENTS / 2 }, (_, n): DynamoDBRecord => {
      const message = newMessage(new Date(), randomUUID(), randomUUID(), `units ${n}`, { automated: false, via });
      return {
        eventName: 'INSERT',
        dynamodb: {
          ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
          SequenceNumber: String(n + 1).padStart(21, '0'),
          NewImage: marshall(itemOf(entities.message, message), { removeUndefinedValues: true }) as never,
        },
      };
    });
    let logged = 0;
    await logEventsFromStream(records, () => logged++);
    const writeUnits = recorder.calls.reduce((sum, call) => sum + call.writeUnits, 0);
    const unitsPerEvent = writeUnits / logged;

    // 3. Idle SSE clients on one server, then one event each of them must receive.
    const opened = await Promise.allSettled(
      Array.from({ length: IDLE_CLIENTS }, () => openStream(`${base}/v1/stream`, headers)),
    );
    const open = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refused = opened.length - open.filter((s) => s.status === 200).length;
    const body = `to-all-${randomUUID()}`;
    const fanStarted = performance.now();
    await send(body);
    const reached = await Promise.race([
      Promise.all(open.map((s) => s.waitFor(body))).then(() => true),
      new Promise<false>((done) => setTimeout(() => done(false), 30_000)),
    ]);
    const fanMs = performance.now() - fanStarted;
    for (const s of open) s.close();
    const held = reached && refused === 0 ? open.length : 0;

    printTable(
      `Live: the event log and its SSE stream (local runtime, ${LATENCY_SAMPLES} messages; ${logged} events logged in process; ${IDLE_CLIENTS} idle clients)`,
      ['measure', 'value', 'goal', 'verdict'],
      [
        [
          'action → SSE event p50 / p95',
          `${p50.toFixed(0)} / ${p95.toFixed(0)} ms`,
          `p95 ≤ ${GOALS.p95Ms} ms`,
          verdict(p95 <= GOALS.p95Ms, `${p95.toFixed(0)} ms`, 'a smaller stream-poller interval (100 ms now)'),
        ],
        [
          'write units per event logged',
          unitsPerEvent.toFixed(2),
          `${GOALS.unitsPerEvent} (one item, no index)`,
          verdict(
            unitsPerEvent <= GOALS.unitsPerEvent,
            unitsPerEvent.toFixed(2),
            'smaller event data (ids, not copies)',
          ),
        ],
        [
          'idle SSE clients held, one event to all',
          `${held} (refused ${refused}; all reached in ${fanMs.toFixed(0)} ms: ${reached})`,
          `≥ ${GOALS.idleClients} without errors`,
          verdict(held >= GOALS.idleClients, `${held}`, 'fewer bytes per connection'),
        ],
      ],
    );
  } finally {
    await clients.close();
    await stack.stop();
  }
}

await main();
