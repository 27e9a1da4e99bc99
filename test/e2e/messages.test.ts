import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, ok, type Actor } from '../support/social.js';

let alice: Actor;
let bob: Actor;
let carol: Actor;
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([actor(), actor(), actor()]);
});

const send = (from: Actor, to: string, body: string) =>
  call('POST', '/v1/messages', {
    token: from.key,
    profileId: from.profile.id,
    body: { recipient_profile_id: to, body },
  });
const conversation = (a: Actor, other: string, extra = '') =>
  call('GET', `/v1/messages?with_profile_id=${other}${extra}`, { token: a.key, profileId: a.profile.id });

describe('messages', () => {
  it('both sides see the conversation, newest first, paginated; other conversations stay apart', async () => {
    const m1 = ok(await send(alice, bob.profile.id, 'hi bob'), 201).message;
    expect(m1).toMatchObject({
      sender_profile_id: alice.profile.id,
      recipient_profile_id: bob.profile.id,
      body: 'hi bob',
    });
    ok(await send(bob, alice.profile.id, 'hi alice'), 201);
    ok(await send(alice, bob.profile.id, 'how are you?'), 201);
    ok(await send(alice, carol.profile.id, 'psst carol'), 201);

    const forBob = ok(await conversation(bob, alice.profile.id));
    expect(forBob.items.map((m: any) => m.body)).toEqual(['how are you?', 'hi alice', 'hi bob']);
    const forAlice = ok(await conversation(alice, bob.profile.id, '&limit=2'));
    expect(forAlice.items.map((m: any) => m.body)).toEqual(['how are you?', 'hi alice']);
    const older = ok(await conversation(alice, bob.profile.id, `&limit=2&cursor=${forAlice.next_cursor}`));
    expect(older.items.map((m: any) => m.body)).toEqual(['hi bob']);
    expect(ok(await conversation(carol, alice.profile.id)).items.map((m: any) => m.body)).toEqual(['psst carol']);
    expect(ok(await conversation(carol, bob.profile.id)).items).toEqual([]);
  });

  it('refuses bad input, self messages, unknown recipients, missing scopes and foreign profiles', async () => {
    expectError(await send(alice, alice.profile.id, 'me'), 400, 'invalid_request');
    expectError(await send(alice, randomUUID(), 'who'), 404, 'not_found');
    expectError(await send(alice, bob.profile.id, ''), 400, 'invalid_request');
    expectError(await send(alice, 'nope', 'x'), 400, 'invalid_request');
    expectError(
      await call('GET', '/v1/messages', { token: alice.key, profileId: alice.profile.id }),
      400,
      'invalid_request',
    );
    expectError(await conversation(alice, 'nope'), 400, 'invalid_request');
    expectError(
      await call('GET', `/v1/messages?with_profile_id=${bob.profile.id}`, {
        token: carol.key,
        profileId: alice.profile.id,
      }),
      403,
      'profile_not_permitted',
    );
    expectError(
      await call('POST', '/v1/messages', {
        token: carol.session,
        profileId: alice.profile.id,
        body: { recipient_profile_id: bob.profile.id, body: 'x' },
      }),
      403,
      'profile_not_permitted',
    );
    const { key } = await createApiKey(alice.session, alice.workspaceId, ['messages:write'], [alice.profile.id]);
    expectError(
      await call('GET', `/v1/messages?with_profile_id=${bob.profile.id}`, { token: key, profileId: alice.profile.id }),
      403,
      'insufficient_scope',
    );
  });
});
