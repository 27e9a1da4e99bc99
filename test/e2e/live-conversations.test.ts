/**
 * The event log's conversation events (API.md "Live"): `message.created` carries the conversation
 * as each side's list presents it right after the message, and a read mark that moves gives the
 * other side one `conversation.read` (poll and SSE), none on a read that moves nothing, none across
 * a block, none to the reader.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.js';
import { sendMessage } from '../support/live.js';
import { actor, ok, type Actor } from '../support/social.js';
import { openStream } from '../support/sse.js';

const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });
const inbox = async (a: Actor) => ok(await call('GET', '/v1/conversations', as(a))).items as any[];
const read = async (a: Actor, conversationId: string) =>
  ok(await call('POST', `/v1/conversations/${conversationId}/read`, { ...as(a), body: {} }));

/**
 * `a`'s conversation events after `after` until `count` have come (each poll held up to 10 s), and
 * the cursor after them. (The follow that puts messages in the inbox notifies too, at its own pace.)
 */
async function nextEvents(a: Actor, after: string | undefined, count: number) {
  const seen: any[] = [];
  let cursor = after;
  while (seen.length < count) {
    const query = `?types=message.created,conversation.read&wait=10${cursor ? `&after=${cursor}` : ''}`;
    const page = ok(await call('GET', `/v1/events${query}`, as(a)));
    if (page.items.length === 0) throw new Error(`only ${seen.length} of ${count} events came`);
    seen.push(...page.items);
    cursor = page.next_cursor;
  }
  return { events: seen, cursor };
}

describe('conversation events', () => {
  it("message.created carries each side's conversation as its list shows it after the message", async () => {
    const [ann, ben] = await Promise.all([actor(), actor()]);
    await sendMessage(ann, ben, 'first');
    await sendMessage(ann, ben, 'second');
    const received = (await nextEvents(ben, undefined, 2)).events;
    expect(received.map((e) => [e.type, e.data.message.body, e.data.conversation.unread_count])).toEqual([
      ['message.created', 'first', 1],
      ['message.created', 'second', 2],
    ]);
    // The second as ben's inbox lists the conversation now (nothing has happened since).
    const [listed] = await inbox(ben);
    expect(received[1].data.conversation).toEqual(listed);
    expect(listed).toMatchObject({ with: { id: ann.profile.id }, last_message: { body: 'second' } });
    expect(received[0].data.conversation.last_message).toEqual(received[0].data.message);

    // The sender's own event is its side: `with` the recipient, nothing unread.
    const sent = (await nextEvents(ann, undefined, 2)).events;
    expect(sent[1].data.conversation).toEqual((await inbox(ann))[0]);
    expect(sent[1].data.conversation).toMatchObject({ with: { id: ben.profile.id }, unread_count: 0 });
  }, 30_000);

  it('a read mark that moves gives the other side one conversation.read, on the poll and the stream', async () => {
    const [ann, ben] = await Promise.all([actor(), actor()]);
    await sendMessage(ann, ben, 'are you there?');
    const before = await nextEvents(ann, undefined, 1);
    const [conversation] = await inbox(ben);
    const stream = await openStream(`/v1/stream?types=conversation.read&after=${before.cursor}`, as(ann));
    expect(stream.status).toBe(200);

    expect(await read(ben, conversation.id)).toEqual({ unread_count: 0 });
    const { events, cursor } = await nextEvents(ann, before.cursor, 1);
    expect(events).toHaveLength(1);
    const [marked] = events;
    expect(marked).toMatchObject({
      type: 'conversation.read',
      profile_id: ann.profile.id,
      data: { read_up_to: conversation.last_message.id },
    });
    // Ann's conversation as her inbox lists it, the other side's mark moved.
    expect(marked.data.conversation).toEqual((await inbox(ann))[0]);
    expect(marked.data.conversation).toMatchObject({
      with: { id: ben.profile.id },
      other_read_up_to: conversation.last_message.id,
    });
    const streamed = (await stream.next())!;
    expect(streamed).toMatchObject({ id: marked.id, event: 'conversation.read' });
    expect(JSON.parse(streamed.data)).toEqual(marked);

    // A read with nothing new moves no mark and logs nothing: the next event ann gets is the reply.
    expect(await read(ben, conversation.id)).toEqual({ unread_count: 0 });
    await sendMessage(ben, ann, 'yes');
    const after = await nextEvents(ann, cursor, 1);
    expect(after.events.map((e) => [e.type, e.data.message?.body])).toEqual([['message.created', 'yes']]);
    stream.close();

    // The reader hears nothing of its own mark.
    const bens = ok(await call('GET', '/v1/events?types=conversation.read', as(ben)));
    expect(bens.items).toEqual([]);
  }, 30_000);

  it('leaves a conversation.read out once a block stands between the two, as the lists do', async () => {
    const [ann, ben] = await Promise.all([actor(), actor()]);
    await sendMessage(ann, ben, 'hello');
    const before = await nextEvents(ann, undefined, 1);
    const [conversation] = await inbox(ben);
    await read(ben, conversation.id);
    expect((await nextEvents(ann, before.cursor, 1)).events[0].type).toBe('conversation.read');
    ok(await call('POST', '/v1/profile-blocks', { ...as(ben), body: { blocked_profile_id: ann.profile.id } }), 201);
    const page = ok(await call('GET', `/v1/events?types=conversation.read&after=${before.cursor}`, as(ann)));
    expect(page.items).toEqual([]);
  }, 30_000);

  it('no conversation.read across a block', async () => {
    const [ann, ben, cal] = await Promise.all([actor(), actor(), actor()]);
    await sendMessage(ann, ben, 'hello');
    const before = await nextEvents(ann, undefined, 1);
    const [conversation] = await inbox(ben);
    ok(await call('POST', '/v1/profile-blocks', { ...as(ann), body: { blocked_profile_id: ben.profile.id } }), 201);
    expect(await read(ben, conversation.id)).toEqual({ unread_count: 0 });
    // Something ann does get, after the read: cal's message is the next event, not ben's mark.
    await sendMessage(cal, ann, 'from cal');
    const after = await nextEvents(ann, before.cursor, 1);
    expect(after.events.map((e) => [e.type, e.data.message?.body])).toEqual([['message.created', 'from cal']]);
  }, 30_000);
});
