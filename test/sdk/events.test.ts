/** The SDK's `events()` against the real local server: it resumes by itself after dropped requests. */
import { describe, expect, inject, it } from 'vitest';
import { createClient, events, type LiveEvent } from '@social-network/sdk';
import { sendMessage } from '../support/live.js';
import { actor } from '../support/social.js';

describe('events()', () => {
  it('yields every event once, in order, while every other request is dropped', async () => {
    const [reader, sender] = await Promise.all([actor(), actor()]);
    let requests = 0;
    // Every second request to the API fails as a dropped connection does.
    const flaky: typeof fetch = (input, init) =>
      ++requests % 2 === 0 ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init);
    const client = createClient({
      baseUrl: inject('baseUrl'),
      apiKey: reader.key,
      profileId: reader.profile.id,
      fetch: flaky,
    });
    const stop = new AbortController();
    const received: LiveEvent[] = [];
    const reading = (async () => {
      for await (const event of events(client, {
        types: ['message.created'],
        waitSeconds: 2,
        retryDelayMs: 50,
        signal: stop.signal,
      })) {
        received.push(event);
        if (received.length === 6) stop.abort();
      }
    })();
    for (let n = 0; n < 6; n++) {
      await sendMessage(sender, reader, `sdk-${n}`);
      await new Promise((r) => setTimeout(r, 150));
    }
    await reading;
    expect(requests).toBeGreaterThan(3);
    expect(received.map((e) => (e.type === 'message.created' ? e.data.message.body : e.type))).toEqual(
      Array.from({ length: 6 }, (_, n) => `sdk-${n}`),
    );
    expect(new Set(received.map((e) => e.id)).size).toBe(6);
  }, 40_000);
});
