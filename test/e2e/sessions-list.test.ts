import { describe, expect, it } from 'vitest';
import { call, expectError, signUp } from '../support/api.js';

const logInAs = (email: string, password: string, userAgent: string) =>
  call('POST', '/v1/sessions', { body: { email, password }, headers: { 'user-agent': userAgent } });

describe('the sessions a person can see and end', () => {
  it('lists the live sessions newest first with how they logged in, the current one marked', async () => {
    const ann = await signUp();
    const phone = await logInAs(ann.email, ann.password, 'Phone Browser/1.0');
    const laptop = await logInAs(ann.email, ann.password, 'Laptop Browser/2.0');
    const token = laptop.body.data.session.token as string;

    const listed = await call('GET', '/v1/me/sessions', { token });
    expect(listed.status).toBe(200);
    const items = listed.body.data.items as Record<string, unknown>[];
    expect(items).toHaveLength(3);
    expect(items.map((s) => s.user_agent).slice(0, 2)).toEqual(['Laptop Browser/2.0', 'Phone Browser/1.0']);
    expect(items.filter((s) => s.current)).toHaveLength(1);
    expect(items[0]).toMatchObject({
      current: true,
      method: 'password',
      second_factor: null,
      // The test server listens on loopback: the address's /24.
      ip_prefix: '127.0.0.0/24',
    });
    expect(items[0]!.last_used_at).toBe(items[0]!.created_at);
    expect(Object.keys(items[0]!).sort()).toEqual(
      ['created_at', 'current', 'id', 'ip_prefix', 'last_used_at', 'method', 'second_factor', 'user_agent'].sort(),
    );
    expect(phone.status).toBe(201);
  });

  it("ends one of the user's sessions at once, and answers another user's session as not found", async () => {
    const ann = await signUp();
    const bob = await signUp();
    const second = await logInAs(ann.email, ann.password, 'Other/1.0');
    const secondToken = second.body.data.session.token as string;
    const sessions = (await call('GET', '/v1/me/sessions', { token: ann.token })).body.data.items as {
      id: string;
      current: boolean;
    }[];
    const other = sessions.find((s) => !s.current)!;
    const bobs = (await call('GET', '/v1/me/sessions', { token: bob.token })).body.data.items[0].id as string;

    expectError(await call('DELETE', `/v1/me/sessions/${bobs}`, { token: ann.token }), 404, 'not_found');
    // Bob's session was not touched.
    expect((await call('GET', '/v1/me', { token: bob.token })).status).toBe(200);
    expectError(
      await call('DELETE', '/v1/me/sessions/6c2f9a3e-1b2c-4d5e-8f90-123456789abc', { token: ann.token }),
      404,
      'not_found',
    );
    expectError(await call('DELETE', '/v1/me/sessions/not-a-uuid', { token: ann.token }), 400, 'invalid_request');

    const ended = await call('DELETE', `/v1/me/sessions/${other.id}`, { token: ann.token });
    expect(ended.status).toBe(200);
    expect(ended.body.data).toEqual({ ended: true });
    expectError(await call('GET', '/v1/me', { token: secondToken }), 401, 'unauthorized');
    const left = (await call('GET', '/v1/me/sessions', { token: ann.token })).body.data.items as { id: string }[];
    expect(left.map((s) => s.id)).not.toContain(other.id);
    expectError(await call('DELETE', `/v1/me/sessions/${other.id}`, { token: ann.token }), 404, 'not_found');
  });

  it('is for sessions only: an API key is refused', async () => {
    const ann = await signUp();
    const key = await call('POST', `/v1/workspaces/${ann.workspace.id}/api-keys`, {
      token: ann.token,
      body: { name: 'k', scopes: ['all:all'] },
    });
    expectError(await call('GET', '/v1/me/sessions', { token: key.body.data.key }), 403, 'session_required');
  });
});
