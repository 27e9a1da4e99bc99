import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { newId } from '../../shared/domain/ids.js';
import { httpHandler } from '../../shared/http/handler.js';
import { defineRoute } from '../../shared/http/contract/route.js';
import { apiEvent, invoke } from '../support/events.js';
import { storedApiKey, storedProfile } from '../support/stored.js';

// A route like the spec's reaction: API key with posts:write, X-Profile-Id required.
const actRoute = defineRoute({
  method: 'PUT',
  path: '/test/act',
  handler: 'test/act',
  tag: 'Test',
  summary: 'act',
  auth: 'credential',
  scope: 'posts:write',
  actingProfile: { required: true, permission: 'reacting' },
  status: 200,
  response: z.unknown(),
  errors: [],
});
const act = httpHandler(actRoute, async ({ auth }) => ({ acting: auth.actingProfile?.id }));

const request = (token: string, profileId?: string) =>
  apiEvent({
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, ...(profileId ? { 'x-profile-id': profileId } : {}) },
  });

describe('acting profile (X-Profile-Id) with API keys', () => {
  it('lets a key act as an attached profile', async () => {
    const ws = newId();
    const profile = await storedProfile(ws);
    const { token: key } = await storedApiKey(ws, ['posts:write'], [profile.id]);
    const result = await invoke(act, request(key, profile.id));
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ acting: profile.id });
  });

  it('requires the header, and a UUID in it', async () => {
    const ws = newId();
    const profile = await storedProfile(ws);
    const { token: key } = await storedApiKey(ws, ['posts:write'], [profile.id]);
    const missing = await invoke(act, request(key));
    expect(missing).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
    expect(missing.body.agent.hint).toContain('X-Profile-Id');
    const malformed = await invoke(act, request(key, 'not-a-uuid'));
    expect(malformed).toMatchObject({
      status: 400,
      body: { error_code: 'invalid_request', error_message: 'Invalid header.' },
    });
  });

  it('refuses a profile of the same workspace that is not attached to the key', async () => {
    const ws = newId();
    const attached = await storedProfile(ws);
    const other = await storedProfile(ws);
    const { token: key } = await storedApiKey(ws, ['posts:write'], [attached.id]);
    expect(await invoke(act, request(key, other.id))).toMatchObject({
      status: 403,
      body: { error_code: 'profile_not_permitted' },
    });
  });

  it('refuses an unknown profile exactly like a forbidden one', async () => {
    const ws = newId();
    const { token: key } = await storedApiKey(ws, ['posts:write'], []);
    const unknown = await invoke(act, request(key, newId()));
    expect(unknown).toMatchObject({ status: 403, body: { error_code: 'profile_not_permitted' } });
  });

  it('checks the scope before the profile', async () => {
    const ws = newId();
    const profile = await storedProfile(ws);
    const { token: key } = await storedApiKey(ws, ['posts:read'], [profile.id]);
    expect(await invoke(act, request(key, profile.id))).toMatchObject({
      status: 403,
      body: { error_code: 'insufficient_scope' },
    });
  });
});
