import { describe, expect, it } from 'vitest';
import { call, expectError, signUp, unique, type SignedUp } from '../support/api.js';
import { ok } from '../support/social.js';

const members = (ws: SignedUp) => `/v1/workspaces/${ws.workspace.id}/members`;
const addMember = async (owner: SignedUp, who: SignedUp, role: 'admin' | 'member') =>
  ok(await call('POST', members(owner), { token: owner.token, body: { email: who.email, role } }), 201);
/** Something only members of the workspace may do (read consistently on every request). */
const createProfileIn = (ws: SignedUp, token: string) =>
  call('POST', '/v1/profiles', {
    token,
    body: { type: 'human', username: unique('m'), name: 'M', call_name: 'M', workspace_id: ws.workspace.id },
  });
/** Something only owners and admins may do. */
const listKeys = (ws: SignedUp, token: string) => call('GET', `/v1/workspaces/${ws.workspace.id}/api-keys`, { token });
const logIn = async (email: string, password: string) => call('POST', '/v1/sessions', { body: { email, password } });

describe('removing members and changing roles', () => {
  it('an admin removes a member, whose very next request is refused', async () => {
    const [owner, admin, member] = await Promise.all([signUp(), signUp(), signUp()]);
    await addMember(owner, admin, 'admin');
    await addMember(owner, member, 'member');
    expect((await createProfileIn(owner, member.token)).status).toBe(201);

    expect(ok(await call('DELETE', `${members(owner)}/${member.user.id}`, { token: admin.token }))).toEqual({
      removed: true,
    });
    expectError(await createProfileIn(owner, member.token), 403, 'forbidden');
    expectError(await call('DELETE', `${members(owner)}/${member.user.id}`, { token: admin.token }), 404, 'not_found');
  });

  it('keeps the owner: an admin can neither remove nor demote them, the owner cannot leave', async () => {
    const [owner, admin] = await Promise.all([signUp(), signUp()]);
    await addMember(owner, admin, 'admin');
    expectError(await call('DELETE', `${members(owner)}/${owner.user.id}`, { token: admin.token }), 403, 'forbidden');
    expectError(
      await call('PATCH', `${members(owner)}/${owner.user.id}`, { token: admin.token, body: { role: 'member' } }),
      403,
      'forbidden',
    );
    expectError(
      await call('DELETE', `${members(owner)}/${owner.user.id}`, { token: owner.token }),
      409,
      'invalid_state',
    );
    expectError(
      await call('PATCH', `${members(owner)}/${owner.user.id}`, { token: owner.token, body: { role: 'admin' } }),
      409,
      'invalid_state',
    );
    expectError(
      await call('PATCH', `${members(owner)}/${admin.user.id}`, { token: owner.token, body: { role: 'owner' } }),
      400,
      'invalid_request',
    );
    expect(ok(await call('GET', '/v1/me', { token: owner.token })).workspaces[0].role).toBe('owner');
  });

  it('members may leave but not remove or promote others; strangers get 403', async () => {
    const [owner, a, b, stranger] = await Promise.all([signUp(), signUp(), signUp(), signUp()]);
    await addMember(owner, a, 'member');
    await addMember(owner, b, 'member');
    expectError(await call('DELETE', `${members(owner)}/${b.user.id}`, { token: a.token }), 403, 'forbidden');
    expectError(
      await call('PATCH', `${members(owner)}/${a.user.id}`, { token: a.token, body: { role: 'admin' } }),
      403,
      'forbidden',
    );
    expectError(await call('DELETE', `${members(owner)}/${b.user.id}`, { token: stranger.token }), 403, 'forbidden');
    ok(await call('DELETE', `${members(owner)}/${a.user.id}`, { token: a.token }));
    expectError(await createProfileIn(owner, a.token), 403, 'forbidden');
    expectError(
      await call('DELETE', `${members(owner)}/${stranger.user.id}`, { token: owner.token }),
      404,
      'not_found',
    );
  });

  it('a role change holds on the next request, both ways', async () => {
    const [owner, member] = await Promise.all([signUp(), signUp()]);
    await addMember(owner, member, 'member');
    expectError(await listKeys(owner, member.token), 403, 'forbidden');

    const promoted = ok(
      await call('PATCH', `${members(owner)}/${member.user.id}`, { token: owner.token, body: { role: 'admin' } }),
    );
    expect(promoted.member).toMatchObject({
      workspace_id: owner.workspace.id,
      user_id: member.user.id,
      role: 'admin',
      email: member.email,
    });
    expect((await listKeys(owner, member.token)).status).toBe(200);

    ok(await call('PATCH', `${members(owner)}/${member.user.id}`, { token: owner.token, body: { role: 'member' } }));
    expectError(await listKeys(owner, member.token), 403, 'forbidden');
  });
});

describe('password change and logging out everywhere', () => {
  it('PUT /v1/me/password needs the current password, ends every other session and keeps this one', async () => {
    const user = await signUp();
    const other = ok(await logIn(user.email, user.password), 201).session.token as string;

    const wrong = expectError(
      await call('PUT', '/v1/me/password', {
        token: user.token,
        body: { current_password: 'not it at all', new_password: 'a brand new password' },
      }),
      403,
      'forbidden',
    );
    expect(JSON.stringify(wrong)).not.toContain('not it at all');
    expect((await call('GET', '/v1/me', { token: other })).status).toBe(200);
    expectError(
      await call('PUT', '/v1/me/password', {
        token: user.token,
        body: { current_password: user.password, new_password: 'short' },
      }),
      400,
      'invalid_request',
    );

    const changed = ok(
      await call('PUT', '/v1/me/password', {
        token: user.token,
        body: { current_password: user.password, new_password: 'a brand new password' },
      }),
    );
    expect(changed).toEqual({ password_changed: true, sessions_ended: 1 });
    expectError(await call('GET', '/v1/me', { token: other }), 401, 'unauthorized');
    expect((await call('GET', '/v1/me', { token: user.token })).status).toBe(200);
    expectError(await logIn(user.email, user.password), 401, 'invalid_credentials');
    expect((await logIn(user.email, 'a brand new password')).status).toBe(201);
  });

  it("DELETE /v1/sessions ends all of the caller's sessions, this one included, and no one else's", async () => {
    const [user, someoneElse] = await Promise.all([signUp(), signUp()]);
    const second = ok(await logIn(user.email, user.password), 201).session.token as string;
    const third = ok(await logIn(user.email, user.password), 201).session.token as string;

    expect(ok(await call('DELETE', '/v1/sessions', { token: second }))).toEqual({
      logged_out: true,
      sessions_ended: 3,
    });
    for (const token of [user.token, second, third])
      expectError(await call('GET', '/v1/me', { token }), 401, 'unauthorized');
    expect((await call('GET', '/v1/me', { token: someoneElse.token })).status).toBe(200);
    // The password still works: logging out is not a lock-out.
    expect((await logIn(user.email, user.password)).status).toBe(201);
  });
});
