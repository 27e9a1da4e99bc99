import { describe, expect, it } from 'vitest';
import { call, signUp, unique } from '../support/api.js';
import { getMembership } from '../../shared/store/workspaces.js';
import { mailbox, tokenOf, waitForMail } from '../support/mail.js';
import { codeAt, enableTotp } from '../support/second-factor.js';

const PASSWORD = 'correct horse battery';

const verify = (token: string) => call('POST', '/v1/email-verifications', { body: { token } });
const login = (email: string, password = PASSWORD) => call('POST', '/v1/sessions', { body: { email, password } });
const confirmReset = (token: string, password: string) =>
  call('POST', '/v1/password-resets/confirm', { body: { token, password } });

/** A token whose secret is changed in its last characters. */
const altered = (token: string) => `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;

describe('email verification', () => {
  it('mails a link at sign-up whose token verifies the address once', async () => {
    const me = await signUp();
    expect(me.user).toMatchObject({ email: me.email, email_verified: false });
    const [mail] = await waitForMail(me.email);
    expect(mail).toMatchObject({ to: me.email, subject: 'Verify your email address' });
    expect(mail!.text).toContain('/console/verify-email?token=');
    expect(mail!.text).not.toContain(PASSWORD);
    expect(new Date(mail!.sent_at).getTime()).not.toBeNaN();

    const token = tokenOf(mail!);
    expect(token).toMatch(/^ev_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    const verified = await verify(token);
    expect(verified.status).toBe(200);
    expect(verified.body.data.user).toMatchObject({ id: me.user.id, email_verified: true });
    const got = await call('GET', '/v1/me', { token: me.token });
    expect(got.body.data.user.email_verified).toBe(true);

    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe('invalid_token');
    expect(again.body.agent.hint).toMatch(/latest mail/);
  });

  it('refuses unknown, altered and malformed tokens with 400 invalid_token', async () => {
    const me = await signUp();
    const token = tokenOf((await waitForMail(me.email))[0]!);
    const unknown = `ev_${'0'.repeat(32)}_${'A'.repeat(43)}`;
    for (const bad of [altered(token), unknown, 'not-a-token', token.replace(/^ev_/, 'pr_')]) {
      const answer = await verify(bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error_code).toBe('invalid_token');
    }
    expect((await verify(token)).status).toBe(200);
  });

  it('resends a fresh link that voids the older, at most 5 an hour', async () => {
    const me = await signUp();
    const first = tokenOf((await waitForMail(me.email))[0]!);
    const resent = await call('POST', '/v1/me/email-verification', { token: me.token });
    expect(resent.status).toBe(200);
    expect(resent.body.data.sent).toBe(true);
    const second = tokenOf((await waitForMail(me.email, 2))[0]!);
    expect(second).not.toBe(first);
    expect((await verify(first)).body.error_code).toBe('invalid_token');

    for (let i = 2; i <= 5; i++)
      expect((await call('POST', '/v1/me/email-verification', { token: me.token })).status).toBe(200);
    const sixth = await call('POST', '/v1/me/email-verification', { token: me.token });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error_code).toBe('rate_limited');
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 409 invalid_state to a resend for a verified address', async () => {
    const me = await signUp();
    await verify(tokenOf((await waitForMail(me.email))[0]!));
    const resent = await call('POST', '/v1/me/email-verification', { token: me.token });
    expect(resent.status).toBe(409);
    expect(resent.body.error_code).toBe('invalid_state');
  });
});

describe('email change', () => {
  it('moves the account to the new address when its link is used; the old one logs in until then', async () => {
    const me = await signUp();
    const newEmail = `${unique('moved')}@example.com`;
    const asked = await call('PUT', '/v1/me/email', { token: me.token, body: { email: newEmail, password: PASSWORD } });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ user: { email: me.email }, pending_email: newEmail });

    const [confirm] = await waitForMail(newEmail);
    expect(confirm!.subject).toBe('Confirm your new email address');
    const notices = await waitForMail(me.email, 2);
    const notice = notices.find((m) => m.subject === 'Your email address is being changed')!;
    expect(notice.text).toContain(newEmail);
    expect(notice.text).not.toContain('token=');

    expect((await login(me.email)).status).toBe(201);
    expect((await login(newEmail)).status).toBe(401);

    const verified = await verify(tokenOf(confirm!));
    expect(verified.status).toBe(200);
    expect(verified.body.data.user).toMatchObject({ email: newEmail, email_verified: true });
    expect((await login(newEmail)).status).toBe(201);
    expect((await login(me.email)).status).toBe(401);
    // The membership's copy of the address moved in the same transaction.
    expect((await getMembership(me.workspace.id, me.user.id))?.email).toBe(newEmail);
  });

  it('answers 401 to a wrong password and 409 to a taken address, at once', async () => {
    const me = await signUp();
    const other = await signUp();
    const wrong = await call('PUT', '/v1/me/email', {
      token: me.token,
      body: { email: `${unique('x')}@example.com`, password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error_code).toBe('invalid_credentials');
    const taken = await call('PUT', '/v1/me/email', {
      token: me.token,
      body: { email: other.email, password: PASSWORD },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error_code).toBe('email_taken');
  });

  it('answers 409 email_taken when someone signed up with the address meanwhile', async () => {
    const me = await signUp();
    const newEmail = `${unique('race')}@example.com`;
    await call('PUT', '/v1/me/email', { token: me.token, body: { email: newEmail, password: PASSWORD } });
    const [confirm] = await waitForMail(newEmail);
    expect(
      (await call('POST', '/v1/users', { body: { email: newEmail, password: PASSWORD, name: 'Quick' } })).status,
    ).toBe(201);
    const late = await verify(tokenOf(confirm!));
    expect(late.status).toBe(409);
    expect(late.body.error_code).toBe('email_taken');
    expect((await login(me.email)).status).toBe(201);
  });
});

describe('password reset', () => {
  it('mails a link that sets the password once and ends every session', async () => {
    const me = await signUp();
    const asked = await call('POST', '/v1/password-resets', { body: { email: me.email } });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual({ requested: true });
    const mail = (await waitForMail(me.email, 2)).find((m) => m.subject === 'Reset your password')!;
    expect(mail.text).toContain('/console/reset-password?token=');
    const token = tokenOf(mail);

    const reset = await confirmReset(token, 'a brand new password');
    expect(reset.status).toBe(200);
    expect(reset.body.data.user.id).toBe(me.user.id);
    expect((await call('GET', '/v1/me', { token: me.token })).status).toBe(401);
    expect((await login(me.email)).status).toBe(401);
    expect((await login(me.email, 'a brand new password')).status).toBe(201);

    const again = await confirmReset(token, 'yet another password');
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe('invalid_token');
  });

  it('answers an unknown address the same, and mails it nothing', async () => {
    const nobody = `${unique('nobody')}@example.com`;
    const asked = await call('POST', '/v1/password-resets', { body: { email: nobody } });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ ok: true, data: { requested: true } });
    // A sign-up after it is mailed, and the mailbox still holds only its mail: the reset was settled unsent.
    const later = await signUp();
    await waitForMail(later.email);
    expect(await mailbox(nobody)).toEqual([]);
  });

  it('voids the older link when a newer one is asked for, and refuses altered tokens', async () => {
    const me = await signUp();
    await call('POST', '/v1/password-resets', { body: { email: me.email } });
    const older = tokenOf((await waitForMail(me.email, 2))[0]!);
    await call('POST', '/v1/password-resets', { body: { email: me.email } });
    const newer = tokenOf((await waitForMail(me.email, 3))[0]!);
    expect((await confirmReset(older, 'a brand new password')).body.error_code).toBe('invalid_token');
    expect((await confirmReset(altered(newer), 'a brand new password')).body.error_code).toBe('invalid_token');
    expect((await confirmReset(newer.replace(/^pr_/, 'ev_'), 'a brand new password')).body.error_code).toBe(
      'invalid_token',
    );
    expect((await confirmReset(newer, 'a brand new password')).status).toBe(200);
  });

  it('lets exactly one of two confirms of one token at once through', async () => {
    const me = await signUp();
    await call('POST', '/v1/password-resets', { body: { email: me.email } });
    const token = tokenOf((await waitForMail(me.email, 2))[0]!);
    const answers = await Promise.all([
      confirmReset(token, 'first new password'),
      confirmReset(token, 'second new password'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = answers.findIndex((a) => a.status === 200) === 0 ? 'first new password' : 'second new password';
    expect((await login(me.email, winner)).status).toBe(201);
  });

  it('asks for the second factor of an account that has one, and keeps the token for the retry', async () => {
    const me = await signUp();
    const { secret } = await enableTotp(me);
    await call('POST', '/v1/password-resets', { body: { email: me.email } });
    const token = tokenOf((await waitForMail(me.email, 2))[0]!);
    const confirm = (extra: Record<string, string>) =>
      call('POST', '/v1/password-resets/confirm', { body: { token, password: 'a brand new password', ...extra } });

    const missing = await confirm({});
    expect(missing.status).toBe(401);
    expect(missing.body.error_code).toBe('second_factor_required');
    const wrong = await confirm({ totp_code: codeAt(secret) === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error_code).toBe('invalid_credentials');
    const right = await confirm({ totp_code: codeAt(secret) });
    expect(right.status).toBe(200);
    expect(right.body.data.user).toMatchObject({ id: me.user.id, totp_enabled: true });
    expect((await login(me.email, 'a brand new password')).body.error_code).toBe('second_factor_required');
  });
});
