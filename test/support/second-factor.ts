import { expect } from 'vitest';
import { totpCode } from '../../shared/domain/totp.js';
import { call, type CallOptions, type SignedUp } from './api.js';

/**
 * The code an authenticator app shows `steps` time steps from now (-1, 0, +1 are all accepted):
 * a test that needs several codes in a row takes later steps, so none is a replay of the last.
 */
export const codeAt = (secret: string, steps = 0) => totpCode(secret, new Date(Date.now() + steps * 30_000));

type Caller = (method: string, path: string, options?: CallOptions) => Promise<{ status: number; body: any }>;

/** Sets up and confirms TOTP for a signed-up user; the secret and the ten recovery codes. */
export async function enableTotp(user: Pick<SignedUp, 'token' | 'password'>, from: Caller = call) {
  const started = await from('POST', '/v1/me/totp', { token: user.token, body: { password: user.password } });
  expect(started.status).toBe(200);
  const secret = started.body.data.secret as string;
  // The step before now's: the log-ins that follow may use now's code without it being a replay.
  const confirmed = await from('POST', '/v1/me/totp/confirm', {
    token: user.token,
    body: { code: codeAt(secret, -1) },
  });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: confirmed.body.data.recovery_codes as string[] };
}
