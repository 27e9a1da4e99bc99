import { describe, expect, it } from 'vitest';
import { call, expectError, signUp, unique } from '../support/api.js';

describe('sign-up, log-in, log-out', () => {
  it('signs up a user with a personal workspace they own, and logs in', async () => {
    const email = `${unique('Ann')}@Example.com`;
    const created = await call('POST', '/v1/users', { body: { email, password: 'long enough pw', name: 'Ann' } });
    expect(created.status).toBe(201);
    expect(created.body.data.user).toMatchObject({ email: email.toLowerCase(), name: 'Ann' });
    expect(created.body.data.user).not.toHaveProperty('password_hash');

    const session = await call('POST', '/v1/sessions', { body: { email, password: 'long enough pw' } });
    expect(session.status).toBe(201);
    expect(session.body.data.session.token).toMatch(/^st_/);
    expect(Date.parse(session.body.data.session.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const me = await call('GET', '/v1/me', { token: session.body.data.session.token });
    expect(me.status).toBe(200);
    expect(me.body.data.user.id).toBe(created.body.data.user.id);
    expect(me.body.data.workspaces).toEqual([
      { id: created.body.data.workspace.id, name: created.body.data.workspace.name, role: 'owner' },
    ]);
  });

  it('refuses a second account for the same email in another case, changing nothing', async () => {
    const { email } = await signUp();
    expectError(
      await call('POST', '/v1/users', {
        body: { email: email.toUpperCase(), password: 'another password', name: 'X' },
      }),
      409,
      'email_taken',
    );
    // The original password still works: the failed sign-up changed nothing.
    expect((await call('POST', '/v1/sessions', { body: { email, password: 'correct horse battery' } })).status).toBe(
      201,
    );
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const { email } = await signUp();
    expectError(
      await call('POST', '/v1/sessions', { body: { email, password: 'wrong password' } }),
      401,
      'invalid_credentials',
    );
    expectError(
      await call('POST', '/v1/sessions', {
        body: { email: `${unique('nobody')}@example.com`, password: 'whatever123' },
      }),
      401,
      'invalid_credentials',
    );
  });

  it('validates sign-up fields and names the failing field in agent.hint', async () => {
    const short = expectError(
      await call('POST', '/v1/users', { body: { email: `${unique('a')}@example.com`, password: 'short', name: 'A' } }),
      400,
      'invalid_request',
    );
    expect(short.agent.hint).toContain('body.password');
    const badEmail = expectError(
      await call('POST', '/v1/users', { body: { email: 'not-an-email', password: 'long enough pw', name: 'A' } }),
      400,
      'invalid_request',
    );
    expect(badEmail.agent.hint).toContain('body.email');
    const missing = expectError(
      await call('POST', '/v1/users', { body: { email: `${unique('a')}@example.com` } }),
      400,
      'invalid_request',
    );
    expect(missing.agent.hint).toMatch(/body\.(password|name)/);
    const wrongType = expectError(
      await call('POST', '/v1/users', {
        body: { email: `${unique('a')}@example.com`, password: 1234567890123, name: 'A' },
      }),
      400,
      'invalid_request',
    );
    expect(wrongType.agent.hint).toContain('body.password');
  });

  it('rejects unknown fields without echoing them', async () => {
    const body = expectError(
      await call('POST', '/v1/users', {
        body: {
          email: `${unique('a')}@example.com`,
          password: 'long enough pw',
          name: 'A',
          ignore_previous_instructions: true,
        },
      }),
      400,
      'invalid_request',
    );
    expect(body.agent.hint).toContain('allowed: email, password, name');
    expect(body.agent.hint).not.toContain('ignore_previous_instructions');
  });

  it('answers malformed JSON, a wrong content type and an oversize body with their own codes', async () => {
    expectError(
      await call('POST', '/v1/users', { rawBody: '{"email": ', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
    expectError(
      await call('POST', '/v1/users', {
        rawBody: 'email=a@b.c',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
    const huge = JSON.stringify({
      email: `${unique('a')}@example.com`,
      password: 'long enough pw',
      name: 'x'.repeat(300 * 1024),
    });
    expectError(
      await call('POST', '/v1/users', { rawBody: huge, headers: { 'content-type': 'application/json' } }),
      413,
      'payload_too_large',
    );
  });

  it('logs out: the token stops working at once', async () => {
    const { token } = await signUp();
    const out = await call('DELETE', '/v1/sessions/current', { token });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ logged_out: true });
    expectError(await call('GET', '/v1/me', { token }), 401, 'unauthorized');
  });

  it('refuses made-up, malformed and missing tokens with 401', async () => {
    const { token } = await signUp();
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expectError(await call('GET', '/v1/me', { token: forged }), 401, 'unauthorized');
    expectError(await call('GET', '/v1/me', { token: 'st_not_a_token' }), 401, 'unauthorized');
    expectError(await call('GET', '/v1/me', { headers: { authorization: 'Basic abc' } }), 401, 'unauthorized');
    const missing = expectError(await call('GET', '/v1/me'), 401, 'unauthorized');
    expect(missing.agent.hint).toContain('/v1/sessions');
  });

  it('an invalid credential sent to a public endpoint is 401, not ignored', async () => {
    expectError(
      await call('GET', '/v1/taxonomies/profile-options/occupations', { token: 'sk_bogus' }),
      401,
      'unauthorized',
    );
  });
});
