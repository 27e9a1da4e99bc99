/**
 * Nothing lost, nothing twice (API.md "Live", issue 34): hundreds of events for one profile, from
 * several senders at once (so several writers append to its log together), while a client drops
 * its stream at random moments and resumes with the last id it got. Every event arrives once, in
 * log order, and the stream's events are the log's.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { sendMessage, readStream, type Received } from '../support/live.js';
import { actor, ok } from '../support/social.js';

const SENDERS = 3;
const PER_SENDER = 100;

describe('a client that reconnects at random moments', () => {
  it('receives every event once and in order', async () => {
    const reader = await actor();
    const senders = await Promise.all(Array.from({ length: SENDERS }, () => actor()));
    const expected = senders.flatMap((_, s) => Array.from({ length: PER_SENDER }, (_, n) => `s${s}-m${n}`));
    // Where the client starts: after a first event, read by the poll.
    await sendMessage(senders[0]!, reader, 'start');
    const start = ok(await call('GET', '/v1/events?wait=10', { token: reader.key, profileId: reader.profile.id }));
    expect(start.items).toHaveLength(1);

    // The senders write side by side; the reader reads meanwhile, dropping after 1 to 40 events.
    const sending = Promise.all(
      senders.map(async (sender, s) => {
        for (let n = 0; n < PER_SENDER; n++) await sendMessage(sender, reader, `s${s}-m${n}`);
      }),
    );
    const received: Received[] = [];
    let last: string | undefined = start.next_cursor;
    let reconnects = 0;
    const deadline = Date.now() + 150_000;
    while (received.length < expected.length) {
      if (Date.now() > deadline) throw new Error(`only ${received.length} of ${expected.length} events after 150 s`);
      const budget = 1 + Math.floor(Math.random() * 40);
      const part = await readStream(
        reader,
        last,
        (got) => got.length < budget && received.length + got.length < expected.length,
      );
      received.push(...part.received);
      last = part.last;
      reconnects++;
      if (received.length > expected.length) break;
    }
    await sending;

    expect(reconnects).toBeGreaterThan(5);
    const ids = received.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length); // none twice
    expect([...ids].sort()).toEqual(ids); // in log order
    expect(received.map((e) => e.body).sort()).toEqual([...expected].sort()); // none missing
    // Each sender's messages in the order sent.
    for (let s = 0; s < SENDERS; s++)
      expect(received.filter((e) => e.body.startsWith(`s${s}-`)).map((e) => e.body)).toEqual(
        expected.filter((body) => body.startsWith(`s${s}-`)),
      );

    // The log answers the same events, in the same order, to the poll.
    const polled: string[] = [];
    let cursor: string = start.next_cursor;
    for (;;) {
      const page = ok(
        await call('GET', `/v1/events?types=message.created&limit=100&after=${cursor}`, {
          token: reader.key,
          profileId: reader.profile.id,
        }),
      );
      polled.push(...page.items.map((e: { id: string }) => e.id));
      if (page.items.length === 0) break;
      cursor = page.next_cursor;
    }
    expect(polled).toEqual(ids);
  }, 180_000);
});
