import { describe, expect, it } from 'vitest';
import { call, expectError, signUp } from '../support/api.js';
import { codeAt, enableTotp } from '../support/second-factor.js';

const logIn = (email: string, password: string, extra: Record<string, string> = {}) =>
  call('POST', '/v1/sessions', { body: { email, password, ...extra } });

describe('the second factor (TOTP and recovery codes)', () => {
  it('says on the user whether a second factor is on and how many recovery codes are left', async () => {
    const ann = await signUp();
    expect((await call('GET', '/v1/me', { token: ann.token })).body.data.user).toMatchObject({
      totp_enabled: false,
      recovery_codes_left: 0,
    });
    const { recoveryCodes } = await enableTotp(ann);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const me = await call('GET', '/v1/me', { token: ann.token });
    expect(me.body.data.user).toMatchObject({ totp_enabled: true, recovery_codes_left: 10 });
    expect(JSON.stringify(me.body)).not.toMatch(/totp_secret|recovery_codes"/);
  });

  it('sets up with the password, answers an otpauth URI of the secret, and refuses wrong passwords and codes', async () => {
    const ann = await signUp();
    expectError(
      await call('POST', '/v1/me/totp', { token: ann.token, body: { password: 'not the password' } }),
      401,
      'invalid_credentials',
    );
    expectError(
      await call('POST', '/v1/me/totp/confirm', { token: ann.token, body: { code: '123456' } }),
      409,
      'invalid_state',
    );

    const started = await call('POST', '/v1/me/totp', { token: ann.token, body: { password: ann.password } });
    expect(started.status).toBe(200);
    const { secret, otpauth_uri } = started.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');

    const wrong = codeAt(secret) === '000000' ? '111111' : '000000';
    expectError(
      await call('POST', '/v1/me/totp/confirm', { token: ann.token, body: { code: wrong } }),
      401,
      'invalid_credentials',
    );
    expect((await call('GET', '/v1/me', { token: ann.token })).body.data.user.totp_enabled).toBe(false);

    const confirmed = await call('POST', '/v1/me/totp/confirm', { token: ann.token, body: { code: codeAt(secret) } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.enabled).toBe(true);
    // On already: a second set-up or confirm is refused, the factor stays as it is.
    expectError(
      await call('POST', '/v1/me/totp', { token: ann.token, body: { password: ann.password } }),
      409,
      'invalid_state',
    );
    expectError(
      await call('POST', '/v1/me/totp/confirm', { token: ann.token, body: { code: codeAt(secret, 1) } }),
      409,
      'invalid_state',
    );
  });

  it('asks a log-in for the code, takes it once, and takes each recovery code once', async () => {
    const ann = await signUp();
    const { secret, recoveryCodes } = await enableTotp(ann);

    const asked = await logIn(ann.email, ann.password);
    expectError(asked, 401, 'second_factor_required');
    expect(asked.body.agent.hint).toContain('totp_code');
    expect(asked.body.agent.hint).toContain('recovery_code');
    // A wrong password is still only that: no hint that the account has a second factor.
    expectError(await logIn(ann.email, 'wrong password', { totp_code: codeAt(secret) }), 401, 'invalid_credentials');

    const wrong = codeAt(secret) === '000000' ? '111111' : '000000';
    expectError(await logIn(ann.email, ann.password, { totp_code: wrong }), 401, 'invalid_credentials');
    expectError(await logIn(ann.email, ann.password, { totp_code: 'abcdef' }), 401, 'invalid_credentials');

    const code = codeAt(secret);
    const session = await logIn(ann.email, ann.password, { totp_code: code });
    expect(session.status).toBe(201);
    expect(session.body.data.session.token).toMatch(/^st_/);
    // The same code again, however right: a replay.
    expectError(await logIn(ann.email, ann.password, { totp_code: code }), 401, 'invalid_credentials');

    const recovered = await logIn(ann.email, ann.password, { recovery_code: recoveryCodes[3]!.toUpperCase() });
    expect(recovered.status).toBe(201);
    expect(recovered.body.data.user).toMatchObject({ totp_enabled: true, recovery_codes_left: 9 });
    expectError(await logIn(ann.email, ann.password, { recovery_code: recoveryCodes[3]! }), 401, 'invalid_credentials');
    expectError(
      await logIn(ann.email, ann.password, { recovery_code: 'aaaaaaa-aaaaaaa-aaaaaaa-aaaaaaa' }),
      401,
      'invalid_credentials',
    );

    const both = await logIn(ann.email, ann.password, {
      totp_code: codeAt(secret, 1),
      recovery_code: recoveryCodes[0]!,
    });
    expectError(both, 400, 'invalid_request');

    const sessions = await call('GET', '/v1/me/sessions', { token: recovered.body.data.session.token });
    const factors = sessions.body.data.items.map((s: { second_factor: string | null }) => s.second_factor);
    expect(factors).toEqual(expect.arrayContaining(['totp', 'recovery_code', null]));
  });

  it('lets one of two log-ins with the same code in at the same moment, and one use of a recovery code', async () => {
    const ann = await signUp();
    const { secret, recoveryCodes } = await enableTotp(ann);
    const code = codeAt(secret);
    const byCode = await Promise.all(
      Array.from({ length: 4 }, () => logIn(ann.email, ann.password, { totp_code: code })),
    );
    expect(byCode.map((r) => r.status).sort()).toEqual([201, 401, 401, 401]);
    const byRecovery = await Promise.all(
      Array.from({ length: 4 }, () => logIn(ann.email, ann.password, { recovery_code: recoveryCodes[0]! })),
    );
    expect(byRecovery.map((r) => r.status).sort()).toEqual([201, 401, 401, 401]);
    expect((await call('GET', '/v1/me', { token: ann.token })).body.data.user.recovery_codes_left).toBe(9);
  });

  it('turns off with the password and a code, not with a wrong one, and log-in asks for no code after', async () => {
    const ann = await signUp();
    expectError(
      await call('DELETE', '/v1/me/totp', { token: ann.token, body: { password: ann.password, code: '123456' } }),
      409,
      'invalid_state',
    );
    const { secret, recoveryCodes } = await enableTotp(ann);
    const off = (password: string, code: string) =>
      call('DELETE', '/v1/me/totp', { token: ann.token, body: { password, code } });

    expectError(await off('not the password', codeAt(secret)), 401, 'invalid_credentials');
    expectError(await off(ann.password, 'aaaaaaa-aaaaaaa-aaaaaaa-aaaaaaa'), 401, 'invalid_credentials');
    const used = codeAt(secret);
    expect((await logIn(ann.email, ann.password, { totp_code: used })).status).toBe(201);
    // The code a log-in just used cannot turn the factor off either.
    expectError(await off(ann.password, used), 401, 'invalid_credentials');

    const turnedOff = await off(ann.password, codeAt(secret, 1));
    expect(turnedOff.status).toBe(200);
    expect(turnedOff.body.data).toEqual({ enabled: false });
    expect((await call('GET', '/v1/me', { token: ann.token })).body.data.user).toMatchObject({
      totp_enabled: false,
      recovery_codes_left: 0,
    });
    expect((await logIn(ann.email, ann.password)).status).toBe(201);
    // The old recovery codes went with it; a code sent to an account without a factor is not asked for.
    expect((await logIn(ann.email, ann.password, { recovery_code: recoveryCodes[1]! })).status).toBe(201);
  });
});

describe('losing the authenticator app', () => {
  it('logs in with a recovery code and turns the factor off with another', async () => {
    const ann = await signUp();
    const { recoveryCodes } = await enableTotp(ann);
    const recovered = await logIn(ann.email, ann.password, { recovery_code: recoveryCodes[0]! });
    expect(recovered.status).toBe(201);
    const token = recovered.body.data.session.token as string;
    const off = (code: string) => call('DELETE', '/v1/me/totp', { token, body: { password: ann.password, code } });
    // The code that logged in is spent.
    expectError(await off(recoveryCodes[0]!), 401, 'invalid_credentials');
    expect((await off(recoveryCodes[1]!)).body.data).toEqual({ enabled: false });
    expect((await logIn(ann.email, ann.password)).status).toBe(201);
  });
});
