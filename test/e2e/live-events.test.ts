import { describe, expect, it } from 'vitest';
import { eventIdOf } from '../../shared/domain/live-events.js';
import { newStreamTicket } from '../../shared/domain/stream-tickets.js';
import { storeStreamTicket } from '../../shared/store/stream-tickets.js';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, ok, type Actor } from '../support/social.js';
import { openStream } from '../support/sse.js';
import { sendMessage } from '../support/live.js';

const send = (from: Actor, to: Actor, body: string) => sendMessage(from, to, body);

const events = (a: Actor, query = '') => call('GET', `/v1/events${query}`, { token: a.key, profileId: a.profile.id });

describe('GET /v1/events', () => {
  it("answers the acting profile's events oldest first after a cursor, and holds an empty answer with wait", async () => {
    const [alice, bob] = await Promise.all([actor(), actor()]);
    const first = ok(await events(alice));
    expect(first).toEqual({ items: [], next_cursor: null });

    await send(bob, alice, 'one');
    await send(bob, alice, 'two');
    const page = ok(await events(alice, '?wait=10'));
    // The long poll answers as soon as the first is logged; the second may come with it or next.
    const seen = [...page.items];
    let cursor: string = page.next_cursor;
    while (seen.length < 2) {
      const more = ok(await events(alice, `?wait=10&after=${cursor}`));
      seen.push(...more.items);
      cursor = more.next_cursor;
    }
    expect(seen.map((e: any) => [e.type, e.data.message.body])).toEqual([
      ['message.created', 'one'],
      ['message.created', 'two'],
    ]);
    expect(seen[0].profile_id).toBe(alice.profile.id);
    expect(seen[0].data.conversation.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0].id < seen[1].id).toBe(true);
    // The sender's other sessions hear of it too.
    const sent = ok(await events(bob, '?wait=10'));
    expect(sent.items[0]).toMatchObject({ type: 'message.created', data: { message: { body: 'one' } } });

    // Nothing after the last: an empty page that keeps the cursor; a held one ends after `wait`.
    const empty = ok(await events(alice, `?after=${cursor}&wait=1`));
    expect(empty).toEqual({ items: [], next_cursor: cursor });
    // types filters.
    const none = ok(await events(alice, '?types=feed.post'));
    expect(none.items).toEqual([]);
  }, 30_000);

  it('refuses an altered or foreign cursor (400), a cursor older than the log (410), and callers without events:read or of another workspace (403)', async () => {
    const [alice, bob] = await Promise.all([actor(), actor()]);
    await send(bob, alice, 'hello');
    const page = ok(await events(alice, '?wait=10'));
    const id: string = page.items[0].id;
    const altered = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    expectError(await events(alice, `?after=${altered}`), 400, 'invalid_request');
    expectError(await events(alice, '?after=not-an-id'), 400, 'invalid_request');
    const bobs = ok(await events(bob, '?wait=10')).items[0].id as string;
    expectError(await events(alice, `?after=${bobs}`), 400, 'invalid_request');

    // A cursor of this log, below its first event by more than one: events between are gone.
    const sequence = Number(id.split('-')[0]);
    const older = eventIdOf(alice.profile.id, sequence - 5);
    const expired = expectError(await events(alice, `?after=${older}`), 410, 'cursor_expired');
    expect(expired.agent.hint).toMatch(/lists/);
    // The one right before the first is still whole.
    ok(await events(alice, `?after=${eventIdOf(alice.profile.id, sequence - 1)}`));

    const { key: noScope } = await createApiKey(
      alice.session,
      alice.workspaceId,
      ['messages:read'],
      [alice.profile.id],
    );
    expectError(
      await call('GET', '/v1/events', { token: noScope, profileId: alice.profile.id }),
      403,
      'insufficient_scope',
    );
    const other = await call('GET', '/v1/events', { token: bob.key, profileId: alice.profile.id });
    expect(other.status).toBe(403);
    expect(other.body.ok).toBe(false);
  }, 30_000);
});

describe('GET /v1/stream', () => {
  it('streams events as they happen and resumes exactly after Last-Event-ID', async () => {
    const [alice, bob] = await Promise.all([actor(), actor()]);
    const stream = await openStream('/v1/stream', { token: alice.key, profileId: alice.profile.id });
    expect(stream.status).toBe(200);
    await send(bob, alice, 'live one');
    const one = (await stream.next())!;
    expect(one.event).toBe('message.created');
    expect(JSON.parse(one.data)).toMatchObject({
      id: one.id,
      type: 'message.created',
      data: { message: { body: 'live one' } },
    });
    stream.close();

    await send(bob, alice, 'while away');
    const resumed = await openStream('/v1/stream', {
      token: alice.key,
      profileId: alice.profile.id,
      lastEventId: one.id,
    });
    const two = (await resumed.next())!;
    expect(JSON.parse(two.data).data.message.body).toBe('while away');
    resumed.close();
  }, 30_000);

  it('opens with a stream ticket once; a used, expired or forged ticket is 401', async () => {
    const [alice, bob] = await Promise.all([actor(), actor()]);
    const issued = ok(await call('POST', '/v1/stream-tickets', { token: alice.key, profileId: alice.profile.id }), 201);
    expect(Date.parse(issued.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
    const stream = await openStream(`/v1/stream?ticket=${issued.ticket}`);
    expect(stream.status).toBe(200);
    await send(bob, alice, 'by ticket');
    expect(JSON.parse((await stream.next())!.data).data.message.body).toBe('by ticket');
    stream.close();

    const again = await openStream(`/v1/stream?ticket=${issued.ticket}`);
    expect(again.status).toBe(401);
    expect(again.errorBody?.error_code).toBe('unauthorized');
    const forged = await openStream(`/v1/stream?ticket=stk_${'A'.repeat(32)}`);
    expect(forged.status).toBe(401);
    // Issued 61 seconds ago: past its 60.
    const old = newStreamTicket(new Date(Date.now() - 61_000), alice.profile.id);
    await storeStreamTicket(old.record);
    const expired = await openStream(`/v1/stream?ticket=${old.ticket}`);
    expect(expired.status).toBe(401);
    expect(expired.errorBody?.error_code).toBe('unauthorized');
  }, 30_000);
});
