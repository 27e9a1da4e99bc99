/**
 * The workspace audit log (API.md "Accountable agents"): every successful write by a credential
 * of the workspace is listed once, with its action, actor, target and request id, newest first;
 * only the workspace's owners and admins may read it; and every response carries X-Request-Id.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, signUp } from '../support/api.js';
import { approvedCode, base, exchange } from '../support/oauth.js';
import { auditLog, entriesOf } from '../support/audit.js';
import { actor, ok, type Actor } from '../support/social.js';

let me: Actor;
let other: Actor;
const asKey = (a: Actor) => ({ token: a.key, profileId: a.profile.id });
const asSession = (a: Actor) => ({ token: a.session, profileId: a.profile.id });

beforeAll(async () => {
  [me, other] = await Promise.all([actor(), actor()]);
});

const requestIdOf = (response: { headers: Headers }) => {
  const id = response.headers.get('x-request-id');
  expect(id).toMatch(/.+/);
  return id!;
};

describe('X-Request-Id', () => {
  it('is on successes and errors alike, one per request, and a caller-sent one is not taken', async () => {
    const sent = { 'x-request-id': 'chosen-by-the-caller' };
    const success = await call('GET', '/v1/me', { token: me.session, headers: sent });
    const error = await call('GET', '/v1/me', { headers: sent });
    expect(success.status).toBe(200);
    expect(error.status).toBe(401);
    expect(requestIdOf(success)).not.toBe('chosen-by-the-caller');
    expect(requestIdOf(error)).not.toBe(requestIdOf(success));
  });
});

describe('the audit log', () => {
  it('lists a post created with an API key: action, actor, acting profile, target, ip prefix and request id', async () => {
    const created = await call('POST', '/v1/posts', { ...asKey(me), body: { body: 'audited' } });
    const post = ok(created, 201).post as { id: string };
    const [entry, ...more] = await entriesOf(me.session, me.workspaceId, requestIdOf(created));
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      id: requestIdOf(created),
      action: 'createPost',
      actor: { kind: 'api_key' },
      acting_profile_id: me.profile.id,
      target: { type: 'post', id: post.id },
      ip_prefix: expect.stringMatching(/\/(24|48)$/) as unknown,
      request_id: requestIdOf(created),
    });
    expect(entry!.actor.api_key_id).toEqual(expect.any(String));
  });

  it("records a like as the post's, a follow as the followed profile's, an unlike (a delete) too", async () => {
    const post = ok(await call('POST', '/v1/posts', { ...asKey(other), body: { body: 'to like' } }), 201).post as {
      id: string;
    };
    const like = { reaction_type: 'like', active: true };
    const liked = await call('PUT', `/v1/posts/${post.id}/reaction`, { ...asSession(me), body: like });
    ok(liked);
    const unliked = await call('PUT', `/v1/posts/${post.id}/reaction`, {
      ...asSession(me),
      body: { ...like, active: false },
    });
    ok(unliked);
    const followed = await call('POST', '/v1/profile-follows', {
      ...asSession(me),
      body: { followed_profile_id: other.profile.id },
    });
    ok(followed, 201);
    for (const [response, action, target] of [
      [liked, 'reactToPost', { type: 'post', id: post.id }],
      [unliked, 'reactToPost', { type: 'post', id: post.id }],
      [followed, 'followProfile', { type: 'profile', id: other.profile.id }],
    ] as const) {
      const entries = await entriesOf(me.session, me.workspaceId, requestIdOf(response));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action, target, actor: { kind: 'session', user_id: me.user.user.id } });
    }
  });

  it("records a connected app's write as the app's, with its grant and name", async () => {
    const approved = await approvedCode(
      me.session,
      {
        workspace_id: me.workspaceId,
        profile_ids: [me.profile.id],
        scopes: ['posts:write'],
      },
      { resource: base() },
    );
    const tokens = await exchange(approved);
    expect(tokens.status).toBe(200);
    const created = await call('POST', '/v1/posts', {
      token: tokens.body.access_token as string,
      profileId: me.profile.id,
      body: { body: 'by an app' },
    });
    ok(created, 201);
    const [entry] = await entriesOf(me.session, me.workspaceId, requestIdOf(created));
    expect(entry).toMatchObject({
      action: 'createPost',
      actor: { kind: 'oauth', client_name: 'Test agent' },
      acting_profile_id: me.profile.id,
    });
    expect(entry!.actor.oauth_grant_id).toEqual(expect.any(String));
  });

  it('records nothing for a write that fails', async () => {
    const refused = await call('POST', '/v1/profile-follows', {
      ...asSession(me),
      body: { followed_profile_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(refused.status).toBe(404);
    const marker = await call('POST', '/v1/posts', { ...asKey(me), body: { body: 'after the refusal' } });
    await entriesOf(me.session, me.workspaceId, requestIdOf(marker));
    const all = await auditLog(me.session, me.workspaceId);
    expect(all.some((e) => e.request_id === requestIdOf(refused))).toBe(false);
  });

  it('lists newest first, filters by actor kind and action, and pages with a cursor', async () => {
    const written: string[] = [];
    for (const body of ['one', 'two', 'three']) {
      const created = await call('POST', '/v1/posts', { ...asKey(other), body: { body } });
      ok(created, 201);
      written.push(requestIdOf(created));
    }
    const followed = await call('POST', '/v1/profile-follows', {
      ...asSession(other),
      body: { followed_profile_id: me.profile.id },
    });
    written.push(requestIdOf(followed));
    for (const requestId of written) await entriesOf(other.session, other.workspaceId, requestId);
    const all = await auditLog(other.session, other.workspaceId);
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());
    const byKey = await auditLog(other.session, other.workspaceId, '&actor_kind=api_key');
    expect(byKey.length).toBeGreaterThanOrEqual(3);
    expect(byKey.every((e) => e.actor.kind === 'api_key')).toBe(true);
    const follows = await auditLog(other.session, other.workspaceId, '&action=followProfile');
    expect(follows.map((e) => e.request_id)).toEqual([requestIdOf(followed)]);

    const first = ok(
      await call('GET', `/v1/workspaces/${other.workspaceId}/audit-log?limit=2`, { token: other.session }),
    );
    expect(first.items).toHaveLength(2);
    const second = ok(
      await call('GET', `/v1/workspaces/${other.workspaceId}/audit-log?limit=2&cursor=${first.next_cursor}`, {
        token: other.session,
      }),
    );
    expect(second.items[0].request_id).toBe(all[2]!.request_id);
  });

  it('is refused to a member, an API key, another workspace and for a bad cursor, as the house refuses them', async () => {
    const member = await signUp();
    ok(
      await call('POST', `/v1/workspaces/${me.workspaceId}/members`, {
        token: me.session,
        body: { email: member.email, role: 'member' },
      }),
      201,
    );
    expectError(
      await call('GET', `/v1/workspaces/${me.workspaceId}/audit-log`, { token: member.token }),
      403,
      'forbidden',
    );
    expectError(
      await call('GET', `/v1/workspaces/${me.workspaceId}/audit-log`, { token: me.key }),
      403,
      'session_required',
    );
    expectError(
      await call('GET', `/v1/workspaces/${me.workspaceId}/audit-log`, { token: other.session }),
      403,
      'forbidden',
    );
    expectError(
      await call('GET', `/v1/workspaces/${me.workspaceId}/audit-log?cursor=bm9wZQ`, { token: me.session }),
      400,
      'invalid_request',
    );
  });
});
