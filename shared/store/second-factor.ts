import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SecondFactorCheck } from '../domain/second-factor.js';
import { db } from './client.js';
import { conditionHeld } from './conditional.js';
import { updateItem, updateRequest, when, type UpdateSpec } from './expressions.js';
import { keys } from './keys.js';
import type { TransactItem } from './transact.js';

/** The user item's second-factor fields (entities.ts UserRecord). */
const SECRET = 'totp_secret';
const PENDING = 'totp_pending_secret';
const LAST_STEP = 'totp_last_step';
const RECOVERY = 'recovery_codes';

const stillEnabledWith = (secret: string) => when.is(SECRET, secret);
const stepIsNew = (step: number) => when.any(when.lacks(LAST_STEP), when.compare(LAST_STEP, '<', step));

const update = (spec: UpdateSpec) => conditionHeld(db().send(new UpdateCommand(updateItem(spec))));

/** Keeps a secret for set-up, unless a second factor is already on. False when it is (or the user is gone). */
export function savePendingTotp(userId: string, secret: string): Promise<boolean> {
  return update({ key: keys.user(userId), set: { [PENDING]: secret }, when: [when.exists(), when.lacks(SECRET)] });
}

/**
 * Turns the pending secret on with the step of the code that confirmed it, and the recovery
 * codes' hashes. False when the pending secret changed meanwhile (a newer set-up) or the factor
 * is already on (a second confirm).
 */
export function enableTotp(userId: string, pending: string, step: number, recoveryHashes: string[]): Promise<boolean> {
  return update({
    key: keys.user(userId),
    set: {
      [SECRET]: pending,
      [LAST_STEP]: step,
      [RECOVERY]: Object.fromEntries(recoveryHashes.map((hash) => [hash, true])),
    },
    remove: [PENDING],
    when: [when.is(PENDING, pending), when.lacks(SECRET)],
  });
}

/** The update that spends a passing check's code; undefined when nothing is to be spent (no factor). */
export function secondFactorSpend(userId: string, check: SecondFactorCheck): UpdateSpec | undefined {
  const key = keys.user(userId);
  if (check.outcome === 'totp')
    return { key, set: { [LAST_STEP]: check.step }, when: [stillEnabledWith(check.secret), stepIsNew(check.step)] };
  if (check.outcome === 'recovery_code') {
    const code = `${RECOVERY}.${check.hash}`;
    return { key, remove: [code], when: [stillEnabledWith(check.secret), when.has(code)] };
  }
  return undefined;
}

/** The spend as one item of a transaction (log-in writes it with the session). */
export const spendTransactItem = (spec: UpdateSpec): TransactItem => ({ Update: updateRequest(spec) });

/** The spend on its own: false when another request spent the code first. */
export const spendCode = (spec: UpdateSpec): Promise<boolean> => update(spec);

/**
 * Turns the second factor off, on the conditions of spending the code that asked for it (a TOTP
 * step not used yet, a recovery code still there). False when the factor changed or the code was
 * spent meanwhile.
 */
export function disableTotp(spend: UpdateSpec): Promise<boolean> {
  return update({ key: spend.key, remove: [SECRET, LAST_STEP, RECOVERY, PENDING], when: spend.when });
}
