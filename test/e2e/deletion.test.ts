import { describe, expect, it } from 'vitest';
import { call, expectError, signUp, unique } from '../support/api.js';
import { actor, ok, post, type Actor } from '../support/social.js';

/** A post's status once its copy of the author's card has followed the profile (the profile stream refreshes it). */
async function postStatusSettled(postId: string, expected: number): Promise<number> {
  const read = async () => (await call('GET', `/v1/posts/${postId}`)).status;
  const deadline = Date.now() + 15_000;
  while ((await read()) !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return read();
}

const me = (a: Actor, body: Record<string, unknown>) => call('DELETE', '/v1/me', { token: a.session, body });
const profileRead = (a: Actor) => call('GET', `/v1/profiles/${a.profile.id}`);
const deleteProfile = (token: string, a: Actor, confirm: string) =>
  call('DELETE', `/v1/profiles/${a.profile.id}`, { token, body: { confirm_username: confirm } });

describe('account deletion with a grace period', () => {
  it('refuses a wrong password (401 invalid_credentials) and changes nothing', async () => {
    const a = await actor();
    expectError(await me(a, { password: 'not the password' }), 401, 'invalid_credentials');
    expect((await profileRead(a)).status).toBe(200);
    expectError(await call('POST', '/v1/me/deletion/cancel', { token: a.session }), 409, 'invalid_state');
  });

  it('hides the profiles as a suspension does, lets the user sign in, and a cancel restores everything', async () => {
    const a = await actor();
    const written = await post(a, { body: `kept through a cancelled deletion ${unique('x')}` });
    const scheduled = ok(await me(a, { password: a.user.password }));
    expect(scheduled.deletion.status).toBe('scheduled');
    const days = (Date.parse(scheduled.deletion.scheduled_for) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    expectError(await profileRead(a), 404, 'not_found');
    expect(await postStatusSettled(written.post.id, 404)).toBe(404);
    // The user may still sign in, and asking again changes nothing.
    ok(await call('POST', '/v1/sessions', { body: { email: a.user.email, password: a.user.password } }), 201);
    ok(await call('GET', '/v1/me', { token: a.session }));
    const again = ok(await me(a, { password: a.user.password, when: 'after_grace' }));
    expect(again.deletion).toEqual(scheduled.deletion);

    expect(ok(await call('POST', '/v1/me/deletion/cancel', { token: a.session }))).toEqual({ cancelled: true });
    expect(ok(await profileRead(a)).id).toBe(a.profile.id);
    expect(await postStatusSettled(written.post.id, 200)).toBe(200);
    expectError(await call('POST', '/v1/me/deletion/cancel', { token: a.session }), 409, 'invalid_state');
  });

  it('erases now on request: the session stops at once', async () => {
    const a = await actor();
    const now = ok(await me(a, { password: a.user.password, when: 'now' }));
    expect(now.deletion.status).toBe('in_progress');
    expectError(await call('GET', '/v1/me', { token: a.session }), 401, 'unauthorized');
    expectError(await profileRead(a), 404, 'not_found');
  });
});

describe('profile deletion', () => {
  it('refuses a mismatched confirm_username, a member, another workspace and an API key, changing nothing', async () => {
    const owner = await actor();
    const stranger = await actor();
    const member = await signUp('A Member');
    ok(
      await call('POST', `/v1/workspaces/${owner.workspaceId}/members`, {
        token: owner.session,
        body: { email: member.email, role: 'member' },
      }),
      201,
    );

    expectError(await deleteProfile(owner.session, owner, 'someone_else'), 400, 'invalid_request');
    expectError(await deleteProfile(member.token, owner, owner.profile.username), 403, 'forbidden');
    expectError(await deleteProfile(stranger.session, owner, owner.profile.username), 403, 'forbidden');
    expectError(await deleteProfile(owner.key, owner, owner.profile.username), 403, 'session_required');
    expect(ok(await profileRead(owner)).id).toBe(owner.profile.id);
  });

  it("erases the profile at once for its workspace's owner, and its username stays taken", async () => {
    const owner = await actor();
    const deleted = ok(await deleteProfile(owner.session, owner, owner.profile.username.toUpperCase()));
    expect(deleted).toEqual({ deletion: { status: 'in_progress' } });
    expectError(await profileRead(owner), 404, 'not_found');
    expectError(await deleteProfile(owner.session, owner, owner.profile.username), 404, 'not_found');
    const again = await call('POST', '/v1/profiles', {
      token: owner.session,
      body: { type: 'human', username: owner.profile.username, name: 'Again', call_name: 'Again' },
    });
    expectError(again, 409, 'username_taken');
    // The account itself stays.
    ok(await call('GET', '/v1/me', { token: owner.session }));
  });
});
