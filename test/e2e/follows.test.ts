import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, expectError, signUp } from '../support/api.js';
import { actor, ok, settledCount, type Actor } from '../support/social.js';

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

  it('counts followers (from the follows behind them) and following (at once), exactly, under concurrent follows', async () => {
    const counts = async (id: string) => {
      const { followers_count, following_count } = ok(await call('GET', `/v1/profiles/${id}`));
      return { followers_count: followers_count as number, following_count: following_count as number };
    };
    const star = await actor();
    const fans = await signUp();
    const profiles = await Promise.all(Array.from({ length: 30 }, () => createProfile(fans.token)));
    const { key } = await createApiKey(
      fans.token,
      fans.workspace.id,
      ['follows:write'],
      profiles.map((p) => p.id),
    );
    const as = (profileId: string, method: 'POST' | 'DELETE', followed: string) =>
      call(method, '/v1/profile-follows', { token: key, profileId, body: { followed_profile_id: followed } });
    const followers = () => counts(star.profile.id).then((c) => c.followers_count);

    // 30 follow at once, 10 of them twice.
    const first = await Promise.all([
      ...profiles.map((p) => as(p.id, 'POST', star.profile.id)),
      ...profiles.slice(0, 10).map((p) => as(p.id, 'POST', star.profile.id)),
    ]);
    for (const response of first) expect(response.status).toBe(201);
    expect(await settledCount('followers', followers, 30)).toBe(30);
    // The follower's own count moves with its follow.
    expect(await counts(profiles[0]!.id)).toEqual({ followers_count: 0, following_count: 1 });

    // 12 unfollow at once (4 of them twice), while 3 of them also follow someone else.
    const other = await actor();
    await Promise.all([
      ...profiles.slice(0, 12).map((p) => as(p.id, 'DELETE', star.profile.id)),
      ...profiles.slice(0, 4).map((p) => as(p.id, 'DELETE', star.profile.id)),
      ...profiles.slice(0, 3).map((p) => as(p.id, 'POST', other.profile.id)),
    ]);
    expect(await settledCount('followers', followers, 18)).toBe(18);
    expect(
      await settledCount('other followers', () => counts(other.profile.id).then((c) => c.followers_count), 3),
    ).toBe(3);
    expect(await counts(profiles[0]!.id)).toEqual({ followers_count: 0, following_count: 1 });
    expect(await counts(profiles[5]!.id)).toEqual({ followers_count: 0, following_count: 0 });
    expect(await counts(profiles[20]!.id)).toEqual({ followers_count: 0, following_count: 1 });

    // The list agrees with the count.
    const listed = ok(await call('GET', `/v1/profiles/${star.profile.id}/followers?limit=100`));
    expect(listed.items).toHaveLength(18);
    expect(new Set(listed.items.map((i: any) => i.profile.id))).toEqual(new Set(profiles.slice(12).map((p) => p.id)));
  });
});
