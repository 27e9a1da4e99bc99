/**
 * The event-log writer (shared/live/from-stream.ts, store/event-log.ts) on DynamoDB Local: a
 * replayed stream batch writes nothing new, writers of one profile at once take ids in turn
 * (contiguous, none lost), and an event is one item: one write of its size, nothing else.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/domain/ids.js';
import type { LiveEvent } from '../../shared/domain/live-events.js';
import { sequenceOf } from '../../shared/domain/live-events.js';
import { newMessage, type MessageRecord } from '../../shared/domain/social.js';
import { logEventsFromStream } from '../../shared/live/from-stream.js';
import { db } from '../../shared/store/client.js';
import { entities } from '../../shared/store/entities.js';
import { readEventsAfter } from '../../shared/store/event-log.js';
import { itemOf } from '../../shared/store/items.js';
import { recordDynamoDbCalls } from '../support/dynamodb-calls.js';

const via = { kind: 'api_key' } as const;
const recorder = recordDynamoDbCalls(db());
let sequence = 0;

function messageRecord(message: MessageRecord): DynamoDBRecord {
  return {
    eventName: 'INSERT',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      SequenceNumber: String(++sequence).padStart(21, '0'),
      NewImage: marshall(itemOf(entities.message, message), { removeUndefinedValues: true }) as never,
    },
  };
}

const message = (from: string, to: string, body: string) =>
  newMessage(new Date(), from, to, body, { automated: false, via });

describe('the event log writer', () => {
  it('logs a message to the recipient and the sender once; the same batch again writes nothing', async () => {
    const [alice, bob] = [newId(), newId()];
    const batch = [messageRecord(message(bob, alice, 'hi')), messageRecord(message(bob, alice, 'again'))];
    const logged: LiveEvent[] = [];
    expect(await logEventsFromStream(batch, (e) => logged.push(e))).toEqual([]);
    expect(logged.map((e) => [e.profile_id, e.type])).toEqual([
      [alice, 'message.created'],
      [bob, 'message.created'],
      [alice, 'message.created'],
      [bob, 'message.created'],
    ]);

    recorder.reset();
    const replayed: LiveEvent[] = [];
    expect(await logEventsFromStream(batch, (e) => replayed.push(e))).toEqual([]);
    expect(replayed).toEqual([]);
    expect(recorder.calls.filter((c) => c.writeUnits > 0)).toEqual([]);

    const log = await readEventsAfter(alice, undefined, { limit: 10 });
    expect(log.events.map((e) => (e.data as { message: { body: string } }).message.body)).toEqual(['hi', 'again']);
  });

  it('gives writers of one profile at once contiguous ids, each event one item of one write unit', async () => {
    const reader = newId();
    const senders = Array.from({ length: 4 }, () => newId());
    recorder.reset();
    // Four shards' batches at once, each with five messages to the same reader.
    await Promise.all(
      senders.map((sender) =>
        logEventsFromStream(
          Array.from({ length: 5 }, (_, n) => messageRecord(message(sender, reader, `${sender.slice(0, 4)}-${n}`))),
          () => undefined,
        ),
      ),
    );
    const log = await readEventsAfter(reader, undefined, { limit: 100 });
    expect(log.events).toHaveLength(20);
    const numbers = log.events.map((e) => sequenceOf(reader, e.id)!);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    // Every write is a PutItem of one event: 40 events (reader and senders), one unit each (small items).
    const writes = recorder.calls.filter((c) => c.writeUnits > 0);
    expect(new Set(writes.map((c) => c.command))).toEqual(new Set(['PutItem']));
    expect(writes.reduce((sum, c) => sum + c.writeUnits, 0)).toBe(40);
  });
});
