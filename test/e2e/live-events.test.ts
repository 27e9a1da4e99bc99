import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { eventIdOf } from '../../shared/domain/live-events.js';
import { newStreamTicket } from '../../shared/domain/stream-tickets.js';
import { LiveEvent } from '../../shared/http/contract/schemas/live.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';
import { storeStreamTicket } from '../../shared/store/stream-tickets.js';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, follow, ok, post, type Actor } from '../support/social.js';
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

/** The feed.post events of the profile's log, as the poll answers them from its start. */
const feedPosts = async (a: Actor) => ok(await events(a, '?types=feed.post&limit=100')).items as any[];

/** Polls until the profile's log answers a feed.post of `postId` (the fan-out and the log trail the post). */
async function feedPostOf(a: Actor, postId: string): Promise<any> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = (await feedPosts(a)).find((e) => e.data.post.id === postId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no feed.post of ${postId} in ${a.profile.id}'s log`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The raw items of the profile's event log, as DynamoDB holds them. */
async function logItems(profileId: string): Promise<Record<string, unknown>[]> {
  const { Items } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.eventLog(profileId) },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

describe('feed.post events', () => {
  it("log a followed author's post by its id alone and answer it presented, over the poll and SSE alike, exactly per the schema", async () => {
    const [reader, author] = await Promise.all([actor(), actor()]);
    await follow(reader, author);
    const stream = await openStream('/v1/stream', { token: reader.key, profileId: reader.profile.id });
    const body = `Logged by reference ${Date.now()}`;
    const made = (await post(author, { body })).post;

    const polled = await feedPostOf(reader, made.id);
    // As the feed presents the post to this reader.
    const feed = ok(await call('GET', '/v1/feed', { token: reader.key, profileId: reader.profile.id }));
    expect(polled.data).toEqual(feed.items.find((item: any) => item.post.id === made.id));
    expect(polled).toMatchObject({
      type: 'feed.post',
      profile_id: reader.profile.id,
      data: { post: { id: made.id, body, profile_id: author.profile.id }, profile: { id: author.profile.id } },
    });
    // Nothing beside what the schema names.
    expect(LiveEvent.parse(polled)).toEqual(polled);
    const streamed = (await stream.next())!;
    stream.close();
    expect(streamed).toMatchObject({ id: polled.id, event: 'feed.post' });
    expect(JSON.parse(streamed.data)).toEqual(polled);
    // The author is not told of its own post.
    expect(await feedPosts(author)).toEqual([]);

    // The log's item: the post's id and the event's own fields, none of the author's words or identity.
    const [item] = (await logItems(reader.profile.id)).filter((i) => i.type === 'feed.post');
    expect(item!.data).toEqual({ post_id: made.id });
    const text = JSON.stringify(item);
    for (const trace of [body, author.profile.id, author.profile.username, 'author_card'])
      expect(text).not.toContain(trace);
  }, 30_000);

  it('leave out a post deleted since it was logged, and one whose author the reader mutes since (back once unmuted)', async () => {
    const [reader, author, other] = await Promise.all([actor(), actor(), actor()]);
    await follow(reader, author);
    await follow(reader, other);
    const deleted = (await post(author, { body: 'Soon gone' })).post;
    const muted = (await post(other, { body: 'Soon muted' })).post;
    // Logged in either order (two fan-outs): the log's last of them is where a poll past both ends.
    const logged = [(await feedPostOf(reader, deleted.id)).id, (await feedPostOf(reader, muted.id)).id].sort();

    ok(await call('DELETE', `/v1/posts/${deleted.id}`, { token: author.key, profileId: author.profile.id }));
    expect((await feedPosts(reader)).map((e) => e.data.post.id)).toEqual([muted.id]);

    const mute = { token: reader.key, profileId: reader.profile.id, body: { muted_profile_id: other.profile.id } };
    ok(await call('POST', '/v1/profile-mutes', mute), 201);
    // Neither is answered; the cursor still moves past both.
    expect(ok(await events(reader, '?types=feed.post'))).toEqual({ items: [], next_cursor: logged[1] });
    ok(await call('DELETE', '/v1/profile-mutes', mute));
    expect((await feedPosts(reader)).map((e) => e.data.post.id)).toEqual([muted.id]);
  }, 30_000);
});
