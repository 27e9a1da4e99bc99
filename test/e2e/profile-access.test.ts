import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createApiKey, expectError } from '../support/api.js';
import { actor, ok, type Actor } from '../support/social.js';

let alice: Actor; // the managed profile's side (workspace A)
let bob: Actor; // the invited manager's side (workspace B)
let carol: Actor; // a stranger
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([actor(), actor(), actor()]);
});

const grant = async (permissions: string[], by = alice) =>
  ok(
    await call('POST', '/v1/profile-access', {
      token: by.key,
      body: { profile_id: alice.profile.id, manager_profile_id: bob.profile.id, permissions },
    }),
    201,
  ).access_grant;
const act = (a: Actor, path: string, id: string, token = a.key) =>
  call('POST', `/v1/profile-access${path.replace('{id}', id)}`, { token });
const postAsAlice = (token: string) =>
  call('POST', '/v1/posts', { token, profileId: alice.profile.id, body: { body: 'on behalf of alice' } });

describe('profile access grants', () => {
  it('pending → accepted → revoked, and acting through the grant follows its status and permissions', async () => {
    const g = await grant(['posting', 'commenting']);
    expect(g).toMatchObject({
      profile_id: alice.profile.id,
      permissions: ['posting', 'commenting'],
      status: 'pending',
      accepted_at: null,
      declined_at: null,
      revoked_at: null,
      resent_at: null,
      resend_count: 0,
    });
    expect(g.manager_profile).toMatchObject({ id: bob.profile.id, username: bob.profile.username });

    // both sides read the invitation; a stranger does not see it
    for (const token of [bob.key, alice.key, bob.session, alice.session]) {
      const inv = ok(await call('GET', `/v1/profile-access/invitations/${g.id}`, { token }));
      expect(inv.access_grant.id).toBe(g.id);
      expect(inv.managed_profile.id).toBe(alice.profile.id);
    }
    expectError(await call('GET', `/v1/profile-access/invitations/${g.id}`, { token: carol.key }), 404, 'not_found');

    // not accepted yet: no acting
    expectError(await postAsAlice(bob.key), 403, 'profile_not_permitted');

    const resent = ok(await act(alice, '/{id}/resend', g.id)).access_grant;
    expect(resent).toMatchObject({ status: 'pending', resend_count: 1 });
    expect(resent.resent_at).not.toBeNull();

    // the managed side cannot accept its own invitation; strangers do not see it
    expectError(await act(alice, '/invitations/{id}/accept', g.id), 403, 'forbidden');
    expectError(await act(carol, '/invitations/{id}/accept', g.id), 404, 'not_found');
    // the invited side cannot resend or revoke
    expectError(await act(bob, '/{id}/resend', g.id), 403, 'forbidden');

    const accepted = ok(await act(bob, '/invitations/{id}/accept', g.id)).access_grant;
    expect(accepted.status).toBe('accepted');
    expect(accepted.accepted_at).not.toBeNull();
    expect(accepted.declined_at).toBeNull();

    // bob's key (manager attached) and bob's session (member of the manager's workspace) now post as alice
    const created = ok(await postAsAlice(bob.key), 201);
    expect(created.post.profile_id).toBe(alice.profile.id);
    expect(created.profile.id).toBe(alice.profile.id);
    ok(await postAsAlice(bob.session), 201);
    ok(
      await call('POST', `/v1/posts/${created.post.id}/comments`, {
        token: bob.key,
        profileId: alice.profile.id,
        body: { body: 'c' },
      }),
      201,
    );
    // ... but not what the grant does not cover
    expectError(
      await call('PUT', `/v1/posts/${created.post.id}/reaction`, {
        token: bob.key,
        profileId: alice.profile.id,
        body: { reaction_type: 'like', active: true },
      }),
      403,
      'profile_not_permitted',
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
    // a stranger still cannot
    expectError(await postAsAlice(carol.key), 403, 'profile_not_permitted');
    // the author, reached through the grant, sees the post as author (draft visibility)
    const draft = ok(
      await call('POST', '/v1/posts', {
        token: bob.key,
        profileId: alice.profile.id,
        body: { body: 'draft', status: 'draft' },
      }),
      201,
    );
    ok(await call('GET', `/v1/posts/${draft.post.id}`, { token: bob.key, profileId: alice.profile.id }));

    // no resending or accepting an accepted grant
    expectError(await act(alice, '/{id}/resend', g.id), 409, 'invalid_state');
    expectError(await act(bob, '/invitations/{id}/accept', g.id), 409, 'invalid_state');
    expectError(await act(bob, '/invitations/{id}/decline', g.id), 409, 'invalid_state');

    const revoked = ok(await act(alice, '/{id}/revoke', g.id)).access_grant;
    expect(revoked.status).toBe('revoked');
    expect(revoked.revoked_at).not.toBeNull();
    expect(revoked.accepted_at).toBe(accepted.accepted_at);
    expectError(await postAsAlice(bob.key), 403, 'profile_not_permitted');
    expectError(await postAsAlice(bob.session), 403, 'profile_not_permitted');
    expectError(await act(alice, '/{id}/revoke', g.id), 409, 'invalid_state');
  });

  it('pending → declined; a pending grant can be revoked; a new grant can follow a revoked one', async () => {
    const g1 = await grant(['messaging']);
    const declined = ok(await act(bob, '/invitations/{id}/decline', g1.id, bob.session)).access_grant;
    expect(declined).toMatchObject({ status: 'declined', accepted_at: null, revoked_at: null });
    expect(declined.declined_at).not.toBeNull();
    expectError(await act(bob, '/invitations/{id}/accept', g1.id), 409, 'invalid_state');
    expectError(await act(alice, '/{id}/revoke', g1.id), 409, 'invalid_state');

    const g2 = await grant(['posting'], alice);
    expect(ok(await act(alice, '/{id}/revoke', g2.id, alice.session)).access_grant.status).toBe('revoked');
    expectError(await act(bob, '/invitations/{id}/accept', g2.id), 409, 'invalid_state');

    const g3 = await grant(['posting']);
    ok(await act(bob, '/invitations/{id}/accept', g3.id));
    ok(await postAsAlice(bob.key), 201);
    ok(await act(alice, '/{id}/revoke', g3.id));
  });

  it('a grant without posting does not let the manager post', async () => {
    const g = await grant(['reacting']);
    ok(await act(bob, '/invitations/{id}/accept', g.id));
    expectError(await postAsAlice(bob.key), 403, 'profile_not_permitted');
    ok(await act(alice, '/{id}/revoke', g.id));
  });

  it('refuses bad input and callers that do not manage the profile', async () => {
    const create = (token: string, body: unknown) => call('POST', '/v1/profile-access', { token, body });
    const body = { profile_id: alice.profile.id, manager_profile_id: bob.profile.id, permissions: ['posting'] };
    // bob (another workspace) cannot grant access to alice's profile, with a key or a session
    expectError(await create(bob.key, body), 403, 'profile_not_permitted');
    expectError(await create(bob.session, body), 403, 'profile_not_permitted');
    expectError(await create(alice.key, { ...body, permissions: ['everything'] }), 400, 'invalid_request');
    expectError(await create(alice.key, { ...body, permissions: [] }), 400, 'invalid_request');
    expectError(await create(alice.key, { ...body, permissions: ['posting', 'posting'] }), 400, 'invalid_request');
    expectError(await create(alice.key, { ...body, manager_profile_id: alice.profile.id }), 400, 'invalid_request');
    expectError(await create(alice.key, { ...body, manager_profile_id: randomUUID() }), 404, 'not_found');
    expectError(await create(alice.key, { ...body, profile_id: 'nope' }), 400, 'invalid_request');
    const { key: readOnly } = await createApiKey(
      alice.session,
      alice.workspaceId,
      ['profile_access:read'],
      [alice.profile.id],
    );
    expectError(await create(readOnly, body), 403, 'insufficient_scope');
    expectError(
      await call('GET', `/v1/profile-access/invitations/${randomUUID()}`, { token: bob.key }),
      404,
      'not_found',
    );
    expectError(await call('GET', '/v1/profile-access/invitations/nope', { token: bob.key }), 400, 'invalid_request');
    expectError(
      await call('POST', `/v1/profile-access/${randomUUID()}/resend`, { token: alice.key }),
      404,
      'not_found',
    );
    expectError(await call('GET', `/v1/profile-access/invitations/${randomUUID()}`), 401, 'unauthorized');
  });
});
