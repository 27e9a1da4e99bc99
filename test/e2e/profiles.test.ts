import { describe, expect, it } from 'vitest';
import { call, createApiKey, createProfile, expectError, signUp, unique } from '../support/api.js';

const PROFILE_FIELDS = [
  'id',
  'username',
  'type',
  'name',
  'call_name',
  'legal_name_verified',
  'occupation',
  'location',
  'bio',
  'created_at',
  'updated_at',
  'media',
];

describe('profiles', () => {
  it('creates a profile in the personal workspace with every field of the spec present', async () => {
    const owner = await signUp();
    const username = unique('Grace');
    const created = await call('POST', '/v1/profiles', {
      token: owner.token,
      body: { type: 'human', username, name: 'Grace Hopper', call_name: 'Grace' },
    });
    expect(created.status).toBe(201);
    const profile = created.body.data;
    expect(Object.keys(profile).sort()).toEqual([...PROFILE_FIELDS].sort());
    expect(profile).toMatchObject({
      username: username.toLowerCase(),
      type: 'human',
      legal_name_verified: false,
      occupation: null,
      location: null,
      bio: null,
      media: { avatar: {}, banner: {} },
    });
    const read = await call('GET', `/v1/profiles/${profile.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...profile, followers_count: 0, following_count: 0, agent: null, operator: null });
  });

  it('creates company and agent profiles', async () => {
    const owner = await signUp();
    for (const type of ['company', 'agent'] as const) {
      const profile = await createProfile(owner.token, { type });
      expect(profile.type).toBe(type);
    }
  });

  it('refuses usernames that are too short, too long, with bad characters, or taken in another case', async () => {
    const owner = await signUp();
    const attempt = (username: unknown) =>
      call('POST', '/v1/profiles', {
        token: owner.token,
        body: { type: 'human', username, name: 'N', call_name: 'N' },
      });
    for (const bad of ['ab', 'a'.repeat(31), 'with space', 'dash-ed', 'émile', 42]) {
      const body = expectError(await attempt(bad), 400, 'invalid_request');
      expect(body.agent.hint).toContain('body.username');
    }
    const taken = await createProfile(owner.token);
    const body = expectError(await attempt(taken.username.toUpperCase()), 409, 'username_taken');
    expect(body.agent.hint).toContain('regardless of case');
  });

  it('refuses a workspace the session user does not belong to', async () => {
    const owner = await signUp();
    const stranger = await signUp();
    expectError(
      await call('POST', '/v1/profiles', {
        token: stranger.token,
        body: { type: 'human', username: unique('x'), name: 'N', call_name: 'N', workspace_id: owner.workspace.id },
      }),
      403,
      'forbidden',
    );
  });

  it('an API key with profiles:write creates a profile in its workspace and may act as it at once', async () => {
    const owner = await signUp();
    const { key } = await createApiKey(owner.token, owner.workspace.id, ['profiles:write']);
    const created = await call('POST', '/v1/profiles', {
      token: key,
      body: { type: 'agent', username: unique('bot'), name: 'Bot', call_name: 'Bot' },
    });
    expect(created.status).toBe(201);
    const keys = await call('GET', `/v1/workspaces/${owner.workspace.id}/api-keys`, { token: owner.token });
    expect(keys.body.data.items[0].profile_ids).toEqual([created.body.data.id]);
    const edited = await call('PATCH', `/v1/profiles/${created.body.data.id}`, {
      token: key,
      body: { bio: 'I am a bot' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.bio).toBe('I am a bot');
  });

  it('accepts the broader scopes and refuses a key without the scope', async () => {
    const owner = await signUp();
    for (const scope of ['profiles:all', 'all:write', 'all:all']) {
      const { key } = await createApiKey(owner.token, owner.workspace.id, [scope]);
      expect(
        (
          await call('POST', '/v1/profiles', {
            token: key,
            body: { type: 'agent', username: unique('s'), name: 'S', call_name: 'S' },
          })
        ).status,
      ).toBe(201);
    }
    for (const scope of ['profiles:read', 'posts:write', 'all:read']) {
      const { key } = await createApiKey(owner.token, owner.workspace.id, [scope]);
      const body = expectError(
        await call('POST', '/v1/profiles', {
          token: key,
          body: { type: 'agent', username: unique('s'), name: 'S', call_name: 'S' },
        }),
        403,
        'insufficient_scope',
      );
      expect(body.agent.hint).toContain('profiles:write');
    }
  });

  it('edits bio, occupation and location; refuses an occupation that is not listed', async () => {
    const owner = await signUp();
    const profile = await createProfile(owner.token);
    const location = { country_code: 'US', city_name: 'Arlington' };
    const edited = await call('PATCH', `/v1/profiles/${profile.id}`, {
      token: owner.token,
      body: { occupation: 'Software Engineer', location, bio: 'Compilers.' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ occupation: 'Software Engineer', location, bio: 'Compilers.' });
    expect(edited.body.data.updated_at > edited.body.data.created_at).toBe(true);

    const body = expectError(
      await call('PATCH', `/v1/profiles/${profile.id}`, { token: owner.token, body: { occupation: 'Wizard' } }),
      400,
      'invalid_request',
    );
    expect(body.agent.hint).toContain('occupations');
    expectError(
      await call('PATCH', `/v1/profiles/${profile.id}`, { token: owner.token, body: { bio: 'x'.repeat(501) } }),
      400,
      'invalid_request',
    );
    expectError(
      await call('PATCH', `/v1/profiles/${profile.id}`, { token: owner.token, body: { username: 'renamed' } }),
      400,
      'invalid_request',
    );
    expect((await call('GET', `/v1/profiles/${profile.id}`)).body.data.occupation).toBe('Software Engineer');
  });

  it('refuses edits by a key without the profile attached and by another workspace', async () => {
    const owner = await signUp();
    const profile = await createProfile(owner.token);
    const { key } = await createApiKey(owner.token, owner.workspace.id, ['profiles:write']);
    const body = expectError(
      await call('PATCH', `/v1/profiles/${profile.id}`, { token: key, body: { bio: 'no' } }),
      403,
      'profile_not_permitted',
    );
    expect(body.agent.hint).toContain('attached');
    const stranger = await signUp();
    expectError(
      await call('PATCH', `/v1/profiles/${profile.id}`, { token: stranger.token, body: { bio: 'no' } }),
      403,
      'profile_not_permitted',
    );
    expect((await call('GET', `/v1/profiles/${profile.id}`)).body.data.bio).toBeNull();
  });

  it('answers unknown and malformed profile ids with 404 and 400', async () => {
    expectError(await call('GET', '/v1/profiles/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectError(await call('GET', '/v1/profiles/not-a-uuid'), 400, 'invalid_request');
  });
});
