import { describe, expect, it } from 'vitest';
import { verifySecondFactor } from '../../shared/auth/second-factor.js';
import { AppError } from '../../shared/errors.js';
import { getUser } from '../../shared/store/users.js';
import { signUp } from '../support/api.js';
import { codeAt, enableTotp } from '../support/second-factor.js';

/** What the password-reset confirm calls: the check and the spend, on a user as the store reads it. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'passed',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

describe('verifySecondFactor', () => {
  it('passes an account without a second factor, whatever codes come', async () => {
    const ann = await signUp();
    const user = (await getUser(ann.user.id))!;
    expect(await verifySecondFactor(user, {}, new Date())).toBeNull();
    expect(await verifySecondFactor(user, { totp_code: '123456' }, new Date())).toBeNull();
  });

  it('asks for a code, refuses a wrong one, spends a right one once, and each recovery code once', async () => {
    const ann = await signUp();
    const { secret, recoveryCodes } = await enableTotp(ann);
    const user = async () => (await getUser(ann.user.id))!;
    expect(await refusal(verifySecondFactor(await user(), {}, new Date()))).toBe('second_factor_required');
    const wrong = codeAt(secret) === '000000' ? '111111' : '000000';
    expect(await refusal(verifySecondFactor(await user(), { totp_code: wrong }, new Date()))).toBe(
      'invalid_credentials',
    );

    // Two at once with one code, on the same read of the user: the conditional write lets one through.
    const read = await user();
    const code = codeAt(secret);
    const both = await Promise.all([
      refusal(verifySecondFactor(read, { totp_code: code }, new Date())),
      refusal(verifySecondFactor(read, { totp_code: code }, new Date())),
    ]);
    expect(both.sort()).toEqual(['invalid_credentials', 'passed']);
    expect(await refusal(verifySecondFactor(await user(), { totp_code: code }, new Date()))).toBe(
      'invalid_credentials',
    );

    expect(await verifySecondFactor(await user(), { recovery_code: recoveryCodes[4]! }, new Date())).toBe(
      'recovery_code',
    );
    expect(await refusal(verifySecondFactor(read, { recovery_code: recoveryCodes[4]! }, new Date()))).toBe(
      'invalid_credentials',
    );
    expect(Object.keys((await user()).recovery_codes ?? {})).toHaveLength(9);
  });
});
