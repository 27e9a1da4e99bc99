/**
 * The event-log writer (shared/live/from-stream.ts, store/event-log.ts) on DynamoDB Local: a
 * replayed stream batch writes nothing new, writers of one profile at once take ids in turn
 * (contiguous, none lost), and an event is one item: one write of its size, nothing else. The
 * stream records are conversation items' images as sends and read marks leave them, and inbox
 * entries' as the feed's fan-out puts them (a feed.post is logged by reference, with no read).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { newProfile } from '../../shared/domain/entities.js';
import { newId } from '../../shared/domain/ids.js';
import type { LiveEvent } from '../../shared/domain/live-events.js';
import { sequenceOf } from '../../shared/domain/live-events.js';
import { logEventsFromStream } from '../../shared/live/from-stream.js';
import { db } from '../../shared/store/client.js';
import { readEventsAfter } from '../../shared/store/event-log.js';
import { createProfile } from '../../shared/store/profiles.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';
import { conversationRecord, feedEntryRecord, storedSend } from '../support/live-records.js';

const recorder = recordDynamoDbCalls(db());

async function profile(): Promise<string> {
  const p = newProfile(new Date(), {
    workspace_id: newId(),
    username: `log${newId().slice(0, 12)}`,
    type: 'human',
    name: 'Log Reader',
    call_name: 'Reader',
  });
  await createProfile(p);
  return p.id;
}

const send = async (from: string, to: string, body: string, unread: number) =>
  (await storedSend(from, to, body, unread)).records;

describe('the event log writer', () => {
  it('logs a message to the recipient and the sender once; the same batch again writes nothing', async () => {
    const [alice, bob] = await Promise.all([profile(), profile()]);
    const batch = [...(await send(bob, alice, 'hi', 1)), ...(await send(bob, alice, 'again', 2))];
    const logged: LiveEvent[] = [];
    recorder.reset();
    expect(await logEventsFromStream(batch, (e) => logged.push(e))).toEqual([]);
    // Each event: the profile's blocks and the conversation's other profile and last message (one
    // BatchGetItem) side by side, then the log's tail, then the put.
    expect(recorder.calls.map((c) => c.command).sort()).toEqual(
      Array.from({ length: 4 }, () => ['BatchGetItem', 'PutItem', 'Query', 'Query'])
        .flat()
        .sort(),
    );
    // Each profile's lane keeps its records' order; the two lanes run side by side.
    const bodiesOf = (profileId: string) =>
      logged
        .filter((e) => e.profile_id === profileId)
        .map((e) => [e.type, (e.data as { message: { body: string } }).message.body]);
    expect(bodiesOf(alice)).toEqual([
      ['message.created', 'hi'],
      ['message.created', 'again'],
    ]);
    expect(bodiesOf(bob)).toEqual(bodiesOf(alice));

    recorder.reset();
    const replayed: LiveEvent[] = [];
    expect(await logEventsFromStream(batch, (e) => replayed.push(e))).toEqual([]);
    expect(replayed).toEqual([]);
    expect(recorder.calls.filter((c) => c.writeUnits > 0)).toEqual([]);

    const log = await readEventsAfter(alice, undefined, { limit: 10 });
    expect(log.events.map((e) => (e.data as { message: { body: string } }).message.body)).toEqual(['hi', 'again']);
    expect(
      log.events.map((e) => (e.data as { conversation: { unread_count: number } }).conversation.unread_count),
    ).toEqual([1, 2]);
  });

  it('logs a read mark once to the other side, nothing to the reader; a replay writes nothing', async () => {
    const [alice, bob] = await Promise.all([profile(), profile()]);
    const { message } = await storedSend(bob, alice, 'read me', 1);
    // Alice read it: her own item says `read` (no event), bob's `read_by_other` with her mark.
    const batch = [
      conversationRecord(alice, message, { unread_count: 0, last_change: 'read' }),
      conversationRecord(bob, message, { unread_count: 0, last_change: 'read_by_other', other_read_up_to: message.id }),
    ];
    const logged: LiveEvent[] = [];
    expect(await logEventsFromStream(batch, (e) => logged.push(e))).toEqual([]);
    expect(logged.map((e) => [e.profile_id, e.type, (e.data as { read_up_to: string }).read_up_to])).toEqual([
      [bob, 'conversation.read', message.id],
    ]);
    const replayed: LiveEvent[] = [];
    expect(await logEventsFromStream(batch, (e) => replayed.push(e))).toEqual([]);
    expect(replayed).toEqual([]);
  });

  it('gives writers of one profile at once contiguous ids, each event one item written by one PutItem', async () => {
    const reader = await profile();
    const senders = await Promise.all(Array.from({ length: 4 }, () => profile()));
    const batches: DynamoDBRecord[][] = [];
    for (const sender of senders) {
      const batch: DynamoDBRecord[] = [];
      for (let n = 0; n < 5; n++) batch.push(...(await send(sender, reader, `${sender.slice(0, 4)}-${n}`, n + 1)));
      batches.push(batch);
    }
    recorder.reset();
    // Four shards' batches at once, each with five messages to the same reader.
    await Promise.all(batches.map((batch) => logEventsFromStream(batch, () => undefined)));
    const log = await readEventsAfter(reader, undefined, { limit: 100 });
    expect(log.events).toHaveLength(20);
    const numbers = log.events.map((e) => sequenceOf(reader, e.id)!);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    // Every write is a PutItem of one event: 40 events (reader and senders). A message.created
    // carries the message and the conversation (its other profile, the message again): between
    // 1 and 2 KB, so 2 units each.
    const writes = recorder.calls.filter((c) => c.writeUnits > 0);
    expect(new Set(writes.map((c) => c.command))).toEqual(new Set(['PutItem']));
    expect(writes).toHaveLength(40);
    expect(new Set(writes.map((c) => c.writeUnits))).toEqual(new Set([2]));
  });

  it("logs a post entering followers' feeds by its id alone, with no read before the append: one unit each; not the author's own entry, nor a backfill", async () => {
    const author = newId();
    const post_id = newId();
    const published_at = new Date().toISOString();
    const [alice, bob] = [newId(), newId()];
    const batch = [
      feedEntryRecord(alice, { post_id, published_at }),
      feedEntryRecord(bob, { post_id, published_at }),
      // The author's own entry, and an older post a new follow brought in: no news.
      feedEntryRecord(author, { post_id, published_at, own: true }),
      feedEntryRecord(newId(), { post_id: newId(), published_at: '2026-01-01T00:00:00.000Z' }),
    ];
    const logged: LiveEvent[] = [];
    recorder.reset();
    expect(await logEventsFromStream(batch, (e) => logged.push(e))).toEqual([]);
    // Two lanes side by side: in either order.
    expect(logged.map((e) => [e.profile_id, e.type, e.data]).sort()).toEqual(
      [
        [alice, 'feed.post', { post_id }],
        [bob, 'feed.post', { post_id }],
      ].sort(),
    );
    // Each: the log's tail (its own Query), then the put of one unit. Nothing else is read.
    expect(recorder.calls.map((c) => `${c.command} ${c.partition?.split('#')[0] ?? ''}`).sort()).toEqual([
      'PutItem ',
      'PutItem ',
      'Query EVENTS',
      'Query EVENTS',
    ]);
    expect(recorder.calls.filter((c) => c.writeUnits > 0).map((c) => c.writeUnits)).toEqual([1, 1]);

    recorder.reset();
    const replayed: LiveEvent[] = [];
    expect(await logEventsFromStream(batch, (e) => replayed.push(e))).toEqual([]);
    expect(replayed).toEqual([]);
    expect(recorder.calls.filter((c) => c.writeUnits > 0)).toEqual([]);
  });
});
