/**
 * `npm run bench:live`: the per-profile event log and its stream on the local runtime (issue 34).
 * - action to SSE event: a message sent, until the recipient's open stream shows it (p50/p95;
 *   goal p95 ≤ 1 s), through the real pipeline (HTTP, DynamoDB Local, stream poller, event log);
 * - items and write units per event logged: the writer run in process on the same table, its
 *   DynamoDB calls counted by their own ConsumedCapacity (goal: one item, no index; the units are
 *   the event's size, 1 KB a unit: a message.created carries the message and the conversation);
 * - a post logged to its followers' logs as feed.post (the writer in process on inbox entries'
 *   records): DynamoDB reads before each append, and items and write units per follower (goal:
 *   no read before the append, its own tail Query aside; one write unit: the post by reference);
 * - idle SSE clients one local server holds (goal ≥ 1,000 without errors): all open at once on
 *   one profile, then one event that every one of them must receive.
 */
import { randomUUID } from 'node:crypto';
import { newId } from '../../shared/domain/ids.js';
import type { DynamoDBRecord } from 'aws-lambda';
import { Agent } from 'undici';
import { logEventsFromStream } from '../../shared/live/from-stream.js';
import { db } from '../../shared/store/client.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';
import { conversationRecord, feedEntryRecord, storedSend } from '../support/live-records.js';
import { api, percentile, printTable, seedKey, seedUser, startStack, verdict } from './support.js';

const LATENCY_SAMPLES = 100;
const WRITER_EVENTS = 200;
const FEED_FOLLOWERS = 200;
const IDLE_CLIENTS = 1000;
const GOALS = { p95Ms: 1000, itemsPerEvent: 1, idleClients: 1000, feedReads: 0, feedUnits: 1 };

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
    const key = await seedKey(
      base,
      user,
      ['messages:write', 'events:read', 'follows:write', 'posts:write'],
      user.profiles,
    );
    // The reader follows the sender: its messages land in the inbox and make events at once (a
    // stranger's first message waits in the requests, telling the reader nothing).
    await api(base, 'POST', '/v1/profile-follows', { followed_profile_id: sender }, key, reader);
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

    // 2. Items and write units per event logged (the writer in process, on the stack's table):
    // message.created (both sides of each message), then conversation.read (the other side's mark).
    const recorder = recordDynamoDbCalls(db());
    const sends = [];
    for (let n = 0; n < WRITER_EVENTS / 2; n++) sends.push(await storedSend(sender, reader, `units ${n}`, n + 1));
    const measured = async (records: DynamoDBRecord[]) => {
      recorder.reset();
      let logged = 0;
      await logEventsFromStream(records, () => logged++);
      const puts = recorder.calls.filter((call) => call.writeUnits > 0);
      const units = puts.reduce((sum, call) => sum + call.writeUnits, 0);
      return { logged, itemsPerEvent: puts.length / logged, unitsPerEvent: units / logged };
    };
    const messages = await measured(sends.flatMap((s) => s.records));
    const reads = await measured(
      sends.map(({ message }) =>
        conversationRecord(sender, message, {
          unread_count: 0,
          last_change: 'read_by_other',
          other_read_up_to: message.id,
        }),
      ),
    );
    // feed.post: one post of the sender's in the inboxes of followers (their entries' INSERTs).
    const { post } = (await api(
      base,
      'POST',
      '/v1/posts',
      { body: `to the followers ${randomUUID()}` },
      key,
      sender,
    )) as {
      post: { id: string; published_at: string };
    };
    const entry = { post_id: post.id, published_at: post.published_at };
    const followers = Array.from({ length: FEED_FOLLOWERS }, () => newId());
    const feed = await measured(followers.map((follower) => feedEntryRecord(follower, entry)));
    // Before each append: every read but the append's own tail Query (EVENTS#…, then the PutItem).
    const draftReads =
      recorder.calls.filter(
        (call) => ['GetItem', 'BatchGetItem', 'Query'].includes(call.command) && !call.partition?.startsWith('EVENTS#'),
      ).length / feed.logged;
    const logged = messages.logged + reads.logged + feed.logged;
    const itemsPerEvent = Math.max(messages.itemsPerEvent, reads.itemsPerEvent, feed.itemsPerEvent);

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
          'items written per event logged',
          itemsPerEvent.toFixed(2),
          `${GOALS.itemsPerEvent} (one item, no index)`,
          verdict(itemsPerEvent <= GOALS.itemsPerEvent, itemsPerEvent.toFixed(2), 'no second item per event'),
        ],
        [
          'write units per event: message.created / conversation.read',
          `${messages.unitsPerEvent.toFixed(2)} / ${reads.unitsPerEvent.toFixed(2)}`,
          "the event's size (1 KB a unit)",
          'measured',
        ],
        [
          `feed.post to ${feed.logged} followers: reads before the append / write units, per follower`,
          `${draftReads.toFixed(2)} / ${feed.unitsPerEvent.toFixed(2)}`,
          `${GOALS.feedReads} / ${GOALS.feedUnits} (the post by reference, presented when read)`,
          verdict(
            draftReads <= GOALS.feedReads && feed.unitsPerEvent <= GOALS.feedUnits,
            `${draftReads.toFixed(2)} reads, ${feed.unitsPerEvent.toFixed(2)} units`,
            'log the post by id; read it when the event is read',
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
