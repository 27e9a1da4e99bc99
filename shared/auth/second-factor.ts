import type { SecondFactorMethod, UserRecord } from '../domain/entities.js';
import { checkSecondFactor, methodOf, spentBy, type SecondFactorCodes } from '../domain/second-factor.js';
import { AppError } from '../errors.js';
import { secondFactorSpend, spendCode } from '../store/second-factor.js';
import type { UpdateSpec } from '../store/expressions.js';

export const secondFactorRequired = () =>
  new AppError('second_factor_required', {
    hint: 'Send the 6-digit code of your authenticator app as totp_code, or one of your recovery codes as recovery_code, with the same email and password.',
  });

export const wrongCode = () =>
  new AppError('invalid_credentials', {
    message: 'The code is wrong or was already used.',
    hint: 'Send the current code of your authenticator app (each code works once), or an unused recovery code.',
  });

export interface SecondFactorPass {
  /** What the person proved, as the session records it; null when the account has no second factor. */
  method: SecondFactorMethod | null;
  /** The conditional write that spends the code; undefined without a second factor. */
  spend: UpdateSpec | undefined;
  /** The user once the code is spent. */
  user: UserRecord;
}

/**
 * Checks the codes against the user's second factor without spending the code: throws
 * `second_factor_required` when the account has one and no code came, `invalid_credentials` when
 * the code is wrong or already used. The caller writes `spend` (with its own writes, in one
 * transaction, when it has some) and answers `wrongCode()` when the write is refused.
 */
export function passSecondFactor(user: UserRecord, codes: SecondFactorCodes, now: Date): SecondFactorPass {
  const check = checkSecondFactor(user, codes, now);
  if (check.outcome === 'missing') throw secondFactorRequired();
  if (check.outcome === 'wrong') throw wrongCode();
  return { method: methodOf(check), spend: secondFactorSpend(user.id, check), user: spentBy(user, check) };
}

/**
 * The second-factor step of any route that lets a person in on a password (log-in, password
 * reset's confirm): checks the codes and spends the code, exactly once under concurrency. Resolves
 * to the method used (null: the account has none); throws `second_factor_required` or
 * `invalid_credentials` as `passSecondFactor` does, and `invalid_credentials` when another
 * request spent the same code first.
 */
export async function verifySecondFactor(
  user: UserRecord,
  codes: SecondFactorCodes,
  now: Date,
): Promise<SecondFactorMethod | null> {
  const { method, spend } = passSecondFactor(user, codes, now);
  if (spend && !(await spendCode(spend))) throw wrongCode();
  return method;
}
