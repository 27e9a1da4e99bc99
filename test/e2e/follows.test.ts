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

const follow = (a: Actor, followed: string) =>
  call('POST', '/v1/profile-follows', {
    token: a.key,
    profileId: a.profile.id,
    body: { followed_profile_id: followed },
  });
const unfollow = (a: Actor, followed: string) =>
  call('DELETE', '/v1/profile-follows', {
    token: a.key,
    profileId: a.profile.id,
    body: { followed_profile_id: followed },
  });

describe('follows', () => {
  it('follow is idempotent, lists show both directions newest first, unfollow says whether there was one', async () => {
    expect(ok(await follow(alice, carol.profile.id), 201)).toEqual({ followed: true });
    expect(ok(await follow(alice, carol.profile.id), 201)).toEqual({ followed: true });
    expect(ok(await follow(bob, carol.profile.id), 201)).toEqual({ followed: true });
    ok(await follow(alice, bob.profile.id), 201);

    const followers = ok(await call('GET', `/v1/profiles/${carol.profile.id}/followers`));
    expect(followers.items.map((i: any) => i.profile.id)).toEqual([bob.profile.id, alice.profile.id]);
    expect(followers.items[0].followed_at).toMatch(/Z$/);
    const following = ok(await call('GET', `/v1/profiles/${alice.profile.id}/following`));
    expect(following.items.map((i: any) => i.profile.id)).toEqual([bob.profile.id, carol.profile.id]);
    const page1 = ok(await call('GET', `/v1/profiles/${alice.profile.id}/following?limit=1`));
    expect(page1.items).toHaveLength(1);
    const page2 = ok(
      await call('GET', `/v1/profiles/${alice.profile.id}/following?limit=1&cursor=${page1.next_cursor}`),
    );
    expect(page2.items[0].profile.id).toBe(carol.profile.id);

    expect(ok(await unfollow(alice, carol.profile.id))).toEqual({ unfollowed: true });
    expect(ok(await unfollow(alice, carol.profile.id))).toEqual({ unfollowed: false });
    expect(
      ok(await call('GET', `/v1/profiles/${carol.profile.id}/followers`)).items.map((i: any) => i.profile.id),
    ).toEqual([bob.profile.id]);
    // and can follow again
    ok(await follow(alice, carol.profile.id), 201);
    expect(ok(await call('GET', `/v1/profiles/${carol.profile.id}/followers`)).items).toHaveLength(2);
  });

  it('refuses following yourself, unknown and malformed profiles, missing scope and foreign profiles', async () => {
    const self = expectError(await follow(alice, alice.profile.id), 400, 'invalid_request');
    expect(self.agent.hint).toContain('followed_profile_id');
    expectError(await follow(alice, randomUUID()), 404, 'not_found');
    expectError(await follow(alice, 'nope'), 400, 'invalid_request');
    expectError(
      await call('POST', '/v1/profile-follows', { token: alice.key, profileId: alice.profile.id, body: {} }),
      400,
      'invalid_request',
    );
    expectError(
      await call('POST', '/v1/profile-follows', {
        token: bob.key,
        profileId: alice.profile.id,
        body: { followed_profile_id: carol.profile.id },
      }),
      403,
      'profile_not_permitted',
    );
    expectError(
      await call('DELETE', '/v1/profile-follows', {
        token: bob.session,
        profileId: alice.profile.id,
        body: { followed_profile_id: carol.profile.id },
      }),
      403,
      'profile_not_permitted',
    );
    const { key } = await createApiKey(alice.session, alice.workspaceId, ['follows:read'], [alice.profile.id]);
    expectError(
      await call('DELETE', '/v1/profile-follows', {
        token: key,
        profileId: alice.profile.id,
        body: { followed_profile_id: carol.profile.id },
      }),
      403,
      'insufficient_scope',
    );
    expectError(await call('GET', `/v1/profiles/${randomUUID()}/followers`), 404, 'not_found');
    expectError(await call('GET', '/v1/profiles/xyz/following'), 400, 'invalid_request');
  });
});
