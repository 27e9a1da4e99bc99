import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearLoginThrottle, returnLoginAttempt, takeLoginAttempt } from '../../shared/store/login-throttle.js';
import { unique } from '../support/api.js';

/** The throttle's store on the run's table, with a small limit of its own (config reads the variable per call). */
describe('the per-account log-in throttle', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.RATE_LIMIT_LOGIN_EMAIL;
    process.env.RATE_LIMIT_LOGIN_EMAIL = '3/86400';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.RATE_LIMIT_LOGIN_EMAIL;
    else process.env.RATE_LIMIT_LOGIN_EMAIL = saved;
  });

  it('admits the limit, refuses the next until the window ends, and admits again once an attempt is given back', async () => {
    const email = `${unique('t')}@example.com`;
    const now = new Date();
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(await takeLoginAttempt(email, now));
    expect(taken.map((a) => a.admitted)).toEqual([true, true, true]);
    const refused = await takeLoginAttempt(email.toUpperCase(), now);
    expect(refused.admitted).toBe(false);
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(86_400);

    await returnLoginAttempt(taken[0]!);
    expect((await takeLoginAttempt(email, now)).admitted).toBe(true);
    expect((await takeLoginAttempt(email, now)).admitted).toBe(false);
  });

  it('counts exactly when attempts arrive at once', async () => {
    const email = `${unique('t')}@example.com`;
    const now = new Date();
    const attempts = await Promise.all(Array.from({ length: 10 }, () => takeLoginAttempt(email, now)));
    expect(attempts.filter((a) => a.admitted)).toHaveLength(3);
  });

  it('clears for a password reset, and a give-back after the clear does not go below zero', async () => {
    const email = `${unique('t')}@example.com`;
    const now = new Date();
    const first = await takeLoginAttempt(email, now);
    await takeLoginAttempt(email, now);
    await takeLoginAttempt(email, now);
    expect((await takeLoginAttempt(email, now)).admitted).toBe(false);
    await clearLoginThrottle(email, now);
    await returnLoginAttempt(first);
    const after = await Promise.all(Array.from({ length: 4 }, () => takeLoginAttempt(email, now)));
    expect(after.map((a) => a.admitted).sort()).toEqual([false, true, true, true]);
  });
});
