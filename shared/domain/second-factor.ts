import type { SecondFactorMethod, UserRecord } from './entities.js';
import { recoveryCodeHash } from './recovery-codes.js';
import { totpStep } from './totp.js';

/** The codes a log-in (or a password reset) may carry; at most one is used. */
export interface SecondFactorCodes {
  totp_code?: string | undefined;
  recovery_code?: string | undefined;
}

/** One field that takes either code: six digits are the app's, anything else a recovery code. */
export const codesOf = (code: string): SecondFactorCodes =>
  /^\d{6}$/.test(code) ? { totp_code: code } : { recovery_code: code };

type SecondFactorUser = Pick<UserRecord, 'totp_secret' | 'totp_last_step' | 'recovery_codes'>;

/**
 * What a request's codes say about a user's second factor. A right code is not yet used: the
 * caller spends it with a conditional write (a TOTP step only later than the last one, a recovery
 * code only while it is still there), so of two requests with one code exactly one gets in.
 */
export type SecondFactorCheck =
  | { outcome: 'not_enabled' }
  | { outcome: 'missing' }
  | { outcome: 'wrong' }
  | { outcome: 'totp'; secret: string; step: number }
  | { outcome: 'recovery_code'; secret: string; hash: string };

export const totpEnabled = (user: SecondFactorUser): boolean => user.totp_secret !== undefined;

export const recoveryCodesLeft = (user: SecondFactorUser): number => Object.keys(user.recovery_codes ?? {}).length;

export function checkSecondFactor(user: SecondFactorUser, codes: SecondFactorCodes, now: Date): SecondFactorCheck {
  const secret = user.totp_secret;
  if (secret === undefined) return { outcome: 'not_enabled' };
  if (codes.totp_code !== undefined) {
    const step = totpStep(secret, codes.totp_code, now);
    // A code of a step at or before the last one used is a replay, however right it is.
    if (step === undefined || step <= (user.totp_last_step ?? -1)) return { outcome: 'wrong' };
    return { outcome: 'totp', secret, step };
  }
  if (codes.recovery_code !== undefined) {
    const hash = recoveryCodeHash(codes.recovery_code);
    return Object.hasOwn(user.recovery_codes ?? {}, hash)
      ? { outcome: 'recovery_code', secret, hash }
      : { outcome: 'wrong' };
  }
  return { outcome: 'missing' };
}

/** The user as it is once a passing check's code is spent (what an answer shows). */
export function spentBy<U extends SecondFactorUser>(user: U, check: SecondFactorCheck): U {
  if (check.outcome === 'totp') return { ...user, totp_last_step: check.step };
  if (check.outcome !== 'recovery_code') return user;
  const { [check.hash]: _spent, ...left } = user.recovery_codes ?? {};
  return { ...user, recovery_codes: left };
}

/** The method a passing check used, as a session records it. */
export const methodOf = (check: SecondFactorCheck): SecondFactorMethod | null =>
  check.outcome === 'totp' || check.outcome === 'recovery_code' ? check.outcome : null;
