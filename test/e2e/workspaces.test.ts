import { describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, expectError, signUp } from '../support/api.js';

describe('workspaces and members', () => {
  it('creates a workspace owned by the caller, listed in /v1/me', async () => {
    const owner = await signUp();
    const created = await call('POST', '/v1/workspaces', { token: owner.token, body: { name: 'Acme' } });
    expect(created.status).toBe(201);
    expect(created.body.data.workspace.name).toBe('Acme');
    const me = await call('GET', '/v1/me', { token: owner.token });
    expect(me.body.data.workspaces).toContainEqual({ id: created.body.data.workspace.id, name: 'Acme', role: 'owner' });
  });

  it('an owner adds members; a member may not add members or create API keys', async () => {
    const owner = await signUp();
    const member = await signUp();
    const ws = owner.workspace.id;
    const added = await call('POST', `/v1/workspaces/${ws}/members`, {
      token: owner.token,
      body: { email: member.email, role: 'member' },
    });
    expect(added.status).toBe(201);
    expect(added.body.data.member).toMatchObject({ workspace_id: ws, user_id: member.user.id, role: 'member' });

    const me = await call('GET', '/v1/me', { token: member.token });
    expect(me.body.data.workspaces).toContainEqual({ id: ws, name: owner.workspace.name, role: 'member' });

    const third = await signUp();
    expectError(
      await call('POST', `/v1/workspaces/${ws}/members`, {
        token: member.token,
        body: { email: third.email, role: 'member' },
      }),
      403,
      'forbidden',
    );
    expectError(
      await call('POST', `/v1/workspaces/${ws}/api-keys`, {
        token: member.token,
        body: { name: 'k', scopes: ['posts:write'] },
      }),
      403,
      'forbidden',
    );
    expectError(
      await call('POST', `/v1/workspaces/${ws}/members`, {
        token: owner.token,
        body: { email: member.email, role: 'admin' },
      }),
      409,
      'invalid_state',
    );
  });

  it('an admin may create API keys', async () => {
    const owner = await signUp();
    const admin = await signUp();
    await call('POST', `/v1/workspaces/${owner.workspace.id}/members`, {
      token: owner.token,
      body: { email: admin.email, role: 'admin' },
    });
    const key = await createApiKey(admin.token, owner.workspace.id, ['all:all']);
    expect(key.key).toMatch(/^sk_/);
  });

  it('a user who is not a member gets 403 forbidden for the workspace', async () => {
    const owner = await signUp();
    const stranger = await signUp();
    expectError(
      await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys`, { token: stranger.token }),
      403,
      'forbidden',
    );
    expectError(
      await call('POST', `/v1/workspaces/${owner.workspace.id}/members`, {
        token: stranger.token,
        body: { email: stranger.email, role: 'admin' },
      }),
      403,
      'forbidden',
    );
  });

  it('adding an unknown email is 404 with a hint to sign up first', async () => {
    const owner = await signUp();
    const body = expectError(
      await call('POST', `/v1/workspaces/${owner.workspace.id}/members`, {
        token: owner.token,
        body: { email: 'nobody-here@example.com', role: 'member' },
      }),
      404,
      'not_found',
    );
    expect(body.agent.hint).toContain('POST /v1/users');
  });

  it('a malformed workspace id is 400 invalid_request', async () => {
    const owner = await signUp();
    expectError(
      await call('GET', '/v1/workspaces/not-a-uuid/api-keys', { token: owner.token }),
      400,
      'invalid_request',
    );
  });

  it('workspace management refuses API keys with 403 session_required', async () => {
    const owner = await signUp();
    const { key } = await createApiKey(owner.token, owner.workspace.id, ['all:all']);
    expectError(await call('POST', '/v1/workspaces', { token: key, body: { name: 'Nope' } }), 403, 'session_required');
    expectError(
      await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys`, { token: key }),
      403,
      'session_required',
    );
  });
});

describe('API keys', () => {
  it('returns the key once, lists keys without it, and revokes at once', async () => {
    const owner = await signUp();
    const profile = await createProfile(owner.token);
    const created = await call('POST', `/v1/workspaces/${owner.workspace.id}/api-keys`, {
      token: owner.token,
      body: { name: 'bot', scopes: ['profiles:write', 'posts:all'], profile_ids: [profile.id] },
    });
    expect(created.status).toBe(201);
    const { api_key: apiKey, key } = created.body.data;
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey).toMatchObject({
      name: 'bot',
      scopes: ['profiles:write', 'posts:all'],
      profile_ids: [profile.id],
      revoked_at: null,
    });

    const list = await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((k: { id: string }) => k.id)).toContain(apiKey.id);
    expect(JSON.stringify(list.body.data)).not.toContain(key);
    expect(list.body.data.next_cursor === null || typeof list.body.data.next_cursor === 'string').toBe(true);

    // The key works before revocation...
    expect((await call('PATCH', `/v1/profiles/${profile.id}`, { token: key, body: { bio: 'hello' } })).status).toBe(
      200,
    );
    const revoked = await call('DELETE', `/v1/workspaces/${owner.workspace.id}/api-keys/${apiKey.id}`, {
      token: owner.token,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.api_key.revoked_at).not.toBeNull();
    // ...and not after.
    expectError(
      await call('PATCH', `/v1/profiles/${profile.id}`, { token: key, body: { bio: 'again' } }),
      401,
      'unauthorized',
    );
  });

  it('paginates the key list with limit and cursor', async () => {
    const owner = await signUp();
    for (let i = 0; i < 3; i++) await createApiKey(owner.token, owner.workspace.id, ['posts:read']);
    const first = await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys?limit=2`, { token: owner.token });
    expect(first.body.data.items).toHaveLength(2);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await call(
      'GET',
      `/v1/workspaces/${owner.workspace.id}/api-keys?limit=2&cursor=${first.body.data.next_cursor}`,
      { token: owner.token },
    );
    expect(second.body.data.items).toHaveLength(1);
    const ids = [...first.body.data.items, ...second.body.data.items].map((k: { id: string }) => k.id);
    expect(new Set(ids).size).toBe(3);
    expectError(
      await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys?cursor=garbage`, { token: owner.token }),
      400,
      'invalid_request',
    );
    expectError(
      await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys?limit=0`, { token: owner.token }),
      400,
      'invalid_request',
    );
  });

  it('refuses profile ids of another workspace, creating nothing', async () => {
    const owner = await signUp();
    const other = await signUp();
    const foreign = await createProfile(other.token);
    const body = expectError(
      await call('POST', `/v1/workspaces/${owner.workspace.id}/api-keys`, {
        token: owner.token,
        body: { name: 'k', scopes: ['posts:write'], profile_ids: [foreign.id] },
      }),
      403,
      'forbidden',
    );
    expect(body.agent.hint).toContain('profile_ids');
    const list = await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys`, { token: owner.token });
    expect(list.body.data.items).toHaveLength(0);
  });

  it('rejects unknown scopes', async () => {
    const owner = await signUp();
    const body = expectError(
      await call('POST', `/v1/workspaces/${owner.workspace.id}/api-keys`, {
        token: owner.token,
        body: { name: 'k', scopes: ['posts:admin'] },
      }),
      400,
      'invalid_request',
    );
    expect(body.agent.hint).toContain('body.scopes');
  });

  it('revoking a key of another workspace is 404', async () => {
    const owner = await signUp();
    const other = await signUp();
    const { api_key: foreignKey } = await createApiKey(other.token, other.workspace.id, ['posts:read']);
    expectError(
      await call('DELETE', `/v1/workspaces/${owner.workspace.id}/api-keys/${foreignKey.id}`, { token: owner.token }),
      404,
      'not_found',
    );
  });
});
