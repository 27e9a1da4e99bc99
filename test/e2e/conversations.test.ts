/**
 * Messages as an inbox (API.md "Live": conversations, message requests): the lists by box, the
 * unread counts, read marks seen by the other side, hide, accept, a reply accepting, who may
 * message whom; every refusal changes nothing; counts stay exact under concurrent sends and reads.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../shared/domain/social.js';
import { entities } from '../../shared/store/entities.js';
import { getItem } from '../../shared/store/items.js';
import { lastMessageKey } from '../../shared/store/conversations.js';
import { call, createApiKey, expectError, type ApiResponse } from '../support/api.js';
import { eventsFor } from '../support/outbox.js';
import { CLIENT_KINDS, connectMcp, toolData } from '../support/mcp.js';
import { actor, ok, type Actor } from '../support/social.js';

const as = (a: Actor) => ({ token: a.key, profileId: a.profile.id });
const send = (from: Actor, to: Actor, body: string) =>
  call('POST', '/v1/messages', { ...as(from), body: { recipient_profile_id: to.profile.id, body } });
const sent = async (from: Actor, to: Actor, body: string) => ok(await send(from, to, body), 201).message;
const list = async (a: Actor, box: 'inbox' | 'requests' = 'inbox') =>
  ok(await call('GET', `/v1/conversations?box=${box}`, as(a))).items as any[];
const unread = async (a: Actor) => ok(await call('GET', '/v1/conversations/unread-count', as(a)));
const read = (a: Actor, id: string, body: Record<string, unknown> = {}) =>
  call('POST', `/v1/conversations/${id}/read`, { ...as(a), body });
const accept = (a: Actor, id: string) => call('POST', `/v1/conversations/${id}/accept`, as(a));
const hide = (a: Actor, id: string) => call('DELETE', `/v1/conversations/${id}`, as(a));
const follow = async (a: Actor, b: Actor) =>
  ok(await call('POST', '/v1/profile-follows', { ...as(a), body: { followed_profile_id: b.profile.id } }), 201);
const setting = async (a: Actor, allow: string) =>
  call('PUT', '/v1/messages/settings', { ...as(a), body: { allow_messages_from: allow } });
const pair = (a: Actor, b: Actor) => conversationId(a.profile.id, b.profile.id);
/** What each side's lists and counts say: a refusal must leave it as it was. */
const state = async (...actors: Actor[]) =>
  Promise.all(
    actors.map(async (a) => ({ inbox: await list(a), requests: await list(a, 'requests'), unread: await unread(a) })),
  );

describe('conversations', () => {
  let ada: Actor;
  let bea: Actor;
  let cy: Actor;
  beforeAll(async () => {
    [ada, bea, cy] = await Promise.all([actor(), actor(), actor()]);
  });

  it("puts a stranger's first message in the recipient's requests, with no event to it, and in the sender's inbox", async () => {
    const message = await sent(ada, bea, 'hello stranger');
    const [forAda] = await list(ada);
    expect(forAda).toMatchObject({
      id: pair(ada, bea),
      with: { id: bea.profile.id },
      last_message: { id: message.id, body: 'hello stranger', automated: false },
      unread_count: 0,
      other_read_up_to: null,
    });
    expect(await list(bea)).toEqual([]);
    const [request] = await list(bea, 'requests');
    expect(request).toMatchObject({ id: pair(ada, bea), with: { id: ada.profile.id }, unread_count: 1 });
    expect(await unread(bea)).toEqual({ count: 0, requests: 1 });
    expect((await eventsFor([bea.profile.id])).filter((e) => e.type === 'message.created')).toEqual([]);
    // The message item says so, for the event log to skip the recipient; the API shape does not.
    expect(message).not.toHaveProperty('request');
    const stored = await getItem(
      entities.message,
      lastMessageKey({
        profile_id: bea.profile.id,
        other_profile_id: ada.profile.id,
        last_message_at: message.created_at,
        last_message_id: message.id,
      }),
    );
    expect(stored?.request).toBe(true);
  });

  it('accepts a request into the inbox; a second accept changes nothing', async () => {
    const accepted = ok(await accept(bea, pair(ada, bea))).conversation;
    expect(accepted).toMatchObject({ id: pair(ada, bea), with: { id: ada.profile.id }, unread_count: 1 });
    expect((await list(bea)).map((c) => c.id)).toEqual([pair(ada, bea)]);
    expect(await list(bea, 'requests')).toEqual([]);
    expect(await unread(bea)).toEqual({ count: 1, requests: 0 });
    ok(await accept(bea, pair(ada, bea)));
    expect(await unread(bea)).toEqual({ count: 1, requests: 0 });
    // After accepting, messages reach the recipient again.
    const next = await sent(ada, bea, 'glad you accepted');
    const events = await eventsFor([bea.profile.id]);
    expect(events.some((e) => e.type === 'message.created' && e.data.message.id === next.id)).toBe(true);
  });

  it('lets a reply accept a request', async () => {
    await sent(cy, ada, 'from cy');
    expect((await list(ada, 'requests')).map((c) => c.id)).toEqual([pair(ada, cy)]);
    await sent(ada, cy, 'hi cy');
    expect(await list(ada, 'requests')).toEqual([]);
    expect((await list(ada)).map((c) => c.id)).toEqual([pair(ada, cy), pair(ada, bea)]);
    // The other side never saw it as a request: it was in its inbox from its first message.
    expect((await list(cy)).map((c) => c.id)).toEqual([pair(ada, cy)]);
  });

  it('puts a first message from a followed profile straight in the inbox', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    await follow(y, x);
    await sent(x, y, 'you follow me');
    expect((await list(y)).map((c) => c.with.id)).toEqual([x.profile.id]);
    expect(await unread(y)).toEqual({ count: 1, requests: 0 });
  });

  it('moves read marks forward; the other side sees them', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    await follow(y, x);
    const m1 = await sent(x, y, 'one');
    await sent(y, x, 'mine');
    await sent(x, y, 'two');
    const m3 = await sent(x, y, 'three');
    const id = pair(x, y);
    expect((await list(y))[0].unread_count).toBe(3);
    expect(ok(await read(y, id, { up_to: m1.id })).unread_count).toBe(2);
    expect((await list(x))[0].other_read_up_to).toBe(m1.id);
    expect(await unread(y)).toEqual({ count: 2, requests: 0 });
    expect(ok(await read(y, id)).unread_count).toBe(0);
    expect((await list(x))[0].other_read_up_to).toBe(m3.id);
    // Backwards: nothing changes.
    expect(ok(await read(y, id, { up_to: m1.id })).unread_count).toBe(0);
    expect((await list(x))[0].other_read_up_to).toBe(m3.id);
    expect((await list(y))[0].other_read_up_to).toBeNull();
  });

  it('hides a conversation until its next message', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    await follow(y, x);
    await sent(x, y, 'one');
    ok(await hide(y, pair(x, y)));
    expect(await list(y)).toEqual([]);
    expect(await unread(y)).toEqual({ count: 0, requests: 0 });
    expect((await list(x)).map((c) => c.id)).toEqual([pair(x, y)]);
    await sent(x, y, 'two');
    const [back] = await list(y);
    expect(back).toMatchObject({ id: pair(x, y), unread_count: 2, last_message: { body: 'two' } });
  });

  it('refuses reading, accepting or hiding another pair’s conversation with 404, changing nothing', async () => {
    const before = await state(ada, bea, cy);
    const foreign = pair(ada, bea);
    expectError(await read(cy, foreign), 404, 'not_found');
    expectError(await accept(cy, foreign), 404, 'not_found');
    expectError(await hide(cy, foreign), 404, 'not_found');
    expectError(await read(cy, randomUUID()), 404, 'not_found');
    expectError(await read(bea, foreign, { up_to: randomUUID() }), 404, 'not_found');
    expectError(await read(bea, 'nope'), 400, 'invalid_request');
    expectError(await read(bea, foreign, { up_to: 'nope' }), 400, 'invalid_request');
    expectError(await call('GET', '/v1/conversations?box=spam', as(bea)), 400, 'invalid_request');
    expect(await state(ada, bea, cy)).toEqual(before);
  });

  it('takes messages per the recipient’s setting: following refuses a stranger, nobody refuses everyone', async () => {
    const [x, friend, stranger] = await Promise.all([actor(), actor(), actor()]);
    await follow(x, friend);
    expect(ok(await call('GET', '/v1/messages/settings', as(x)))).toEqual({ allow_messages_from: 'everyone' });
    expect(ok(await setting(x, 'following'))).toEqual({ allow_messages_from: 'following' });
    expect(ok(await call('GET', '/v1/messages/settings', as(x)))).toEqual({ allow_messages_from: 'following' });

    let before = await state(x, stranger);
    const refused = await send(stranger, x, 'let me in');
    expectError(refused, 403, 'messages_not_allowed');
    expect(refused.body.agent.hint).toMatch(/follows/);
    expect(await state(x, stranger)).toEqual(before);
    await sent(friend, x, 'a friend');

    ok(await setting(x, 'nobody'));
    before = await state(x, friend, stranger);
    expectError(await send(friend, x, 'still a friend'), 403, 'messages_not_allowed');
    expectError(await send(stranger, x, 'again'), 403, 'messages_not_allowed');
    expect(await state(x, friend, stranger)).toEqual(before);
    expect((await eventsFor([x.profile.id])).filter((e) => e.type === 'message.created')).toHaveLength(1);
    // The setting binds what others send, not what x sends.
    await sent(x, stranger, 'I may write');
    expectError(await setting(x, 'strangers'), 400, 'invalid_request');
    expect(ok(await call('GET', '/v1/messages/settings', as(x)))).toEqual({ allow_messages_from: 'nobody' });
  });

  it('leaves a conversation across a block out of both lists; accepting across it is refused', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    await sent(x, y, 'before the block');
    ok(await call('POST', '/v1/profile-blocks', { ...as(y), body: { blocked_profile_id: x.profile.id } }), 201);
    expect(await list(y, 'requests')).toEqual([]);
    expect(await list(x)).toEqual([]);
    expect(await unread(y)).toEqual({ count: 0, requests: 0 });
    expectError(await accept(y, pair(x, y)), 403, 'blocked');
    ok(await call('DELETE', '/v1/profile-blocks', { ...as(y), body: { blocked_profile_id: x.profile.id } }));
    expect((await list(y, 'requests')).map((c) => c.id)).toEqual([pair(x, y)]);
  });

  it('needs messages:read to list and messages:write to mark read', async () => {
    const { key } = await createApiKey(bea.session, bea.workspaceId, ['messages:write'], [bea.profile.id]);
    expectError(
      await call('GET', '/v1/conversations', { token: key, profileId: bea.profile.id }),
      403,
      'insufficient_scope',
    );
    const readOnly = await createApiKey(bea.session, bea.workspaceId, ['messages:read'], [bea.profile.id]);
    expectError(
      await call('POST', `/v1/conversations/${pair(ada, bea)}/read`, {
        token: readOnly.key,
        profileId: bea.profile.id,
        body: {},
      }),
      403,
      'insufficient_scope',
    );
    expectError(
      await call('GET', '/v1/conversations', { token: cy.key, profileId: bea.profile.id }),
      403,
      'profile_not_permitted',
    );
  });
});

describe('conversations over MCP', () => {
  it('lists, counts, accepts and marks read with the tools of the messages set', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    const first = await sent(x, y, 'over mcp');
    const mcp = await connectMcp(CLIENT_KINDS[0]!, { key: y.key, profileId: y.profile.id, query: 'toolsets=messages' });
    try {
      const id = pair(x, y);
      expect(toolData(await mcp.callTool('get_conversation_unread_count'))).toEqual({ count: 0, requests: 1 });
      const requests = toolData(await mcp.callTool('list_conversations', { box: 'requests' }));
      expect(requests.items.map((c: any) => [c.id, c.last_message.id])).toEqual([[id, first.id]]);
      expect(toolData(await mcp.callTool('accept_conversation', { conversation_id: id })).conversation.id).toBe(id);
      expect(toolData(await mcp.callTool('mark_conversation_read', { conversation_id: id }))).toEqual({
        unread_count: 0,
      });
      expect(toolData(await mcp.callTool('get_conversation_unread_count'))).toEqual({ count: 0, requests: 0 });
      expect((await list(x))[0].other_read_up_to).toBe(first.id);
    } finally {
      await mcp.close();
    }
  });
});

describe('conversation counts under concurrency', () => {
  it('counts every one of many first messages sent at once, in one request', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(x, y, `burst ${i}`)));
    for (const answer of answers) ok(answer, 201);
    expect(await unread(y)).toEqual({ count: 0, requests: 1 });
    const [request] = await list(y, 'requests');
    expect(request.unread_count).toBe(12);
    expect(await list(y)).toEqual([]);
  });

  it('counts both sides exactly when both write at once, and names the newest message as the last', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    await Promise.all([follow(x, y), follow(y, x)]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? send(x, y, `x ${i}`) : send(y, x, `y ${i}`))),
    );
    for (const answer of answers) ok(answer, 201);
    const [forX] = await list(x);
    const [forY] = await list(y);
    expect([forX.unread_count, forY.unread_count]).toEqual([4, 4]);
    const history = ok(await call('GET', `/v1/messages?with_profile_id=${y.profile.id}`, as(x))).items as any[];
    expect(history).toHaveLength(8);
    expect(forX.last_message.id).toBe(history[0].id);
    expect(forY.last_message.id).toBe(history[0].id);
  });

  it('keeps the unread count exact when sends race read marks', async () => {
    const [x, y] = await Promise.all([actor(), actor()]);
    await follow(y, x);
    await sent(x, y, 'first');
    const id = pair(x, y);
    const work: Promise<ApiResponse>[] = [];
    for (let i = 0; i < 12; i++) {
      work.push(send(x, y, `race ${i}`));
      if (i % 3 === 0) work.push(read(y, id));
    }
    for (const answer of await Promise.all(work)) expect([200, 201]).toContain(answer.status);
    // The truth: x's messages after y's read mark, as x sees the mark.
    const mark = (await list(x))[0].other_read_up_to as string | null;
    const messages = ok(await call('GET', `/v1/messages?with_profile_id=${x.profile.id}&limit=100`, as(y)))
      .items as any[];
    const after =
      mark === null
        ? messages
        : messages.slice(
            0,
            messages.findIndex((m) => m.id === mark),
          );
    const [conversation] = await list(y);
    expect(conversation.unread_count).toBe(after.filter((m) => m.sender_profile_id === x.profile.id).length);
    expect(conversation.last_message.id).toBe(messages[0].id);
    expect((await unread(y)).count).toBe(conversation.unread_count);
  });
});
