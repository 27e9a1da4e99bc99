import { expect } from 'vitest';
import { totpCode } from '../../shared/domain/totp.js';
import { call, type CallOptions, type SignedUp } from './api.js';

/**
 * The code an authenticator app shows `steps` time steps from now (-1, 0, +1 are all accepted):
 * a test that needs several codes in a row takes later steps, so none is a replay of the last.
 */
export const codeAt = (secret: string, steps = 0) => totpCode(secret, new Date(Date.now() + steps * 30_000));

/**
 * The code of the step before now's, taken far enough from a step's edge that the server still
 * accepts it: a code computed just before the edge and checked just after it would be two steps
 * old. Sparing now's code lets the log-ins that follow use it without it being a replay.
 */
export async function previousStepCode(secret: string) {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 25_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 50));
  return codeAt(secret, -1);
}

type Caller = (method: string, path: string, options?: CallOptions) => Promise<{ status: number; body: any }>;

/** Sets up and confirms TOTP for a signed-up user; the secret and the ten recovery codes. */
export async function enableTotp(user: Pick<SignedUp, 'token' | 'password'>, from: Caller = call) {
  const started = await from('POST', '/v1/me/totp', { token: user.token, body: { password: user.password } });
  expect(started.status).toBe(200);
  const secret = started.body.data.secret as string;
  const confirmed = await from('POST', '/v1/me/totp/confirm', {
    token: user.token,
    body: { code: await previousStepCode(secret) },
  });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.data.recovery_codes as string[] };
}
