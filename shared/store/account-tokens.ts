/**
 * Account tokens (domain/account-tokens.ts) in the table: issued with their slot and their mail in
 * one transaction, used by emptying the slot in the same transaction as the change they apply.
 * Two uses of one token at once: the slot's condition lets exactly one through.
 */
import { slotOf, type AccountTokenRecord } from '../domain/account-tokens.js';
import type { UserRecord } from '../domain/entities.js';
import type { MailRecord } from '../domain/mail.js';
import { AppError } from '../errors.js';
import { entities, type EmailCredential } from './entities.js';
import { conditionRequest, updateRequest, when } from './expressions.js';
import { getItem, putTransactItem } from './items.js';
import { keys } from './keys.js';
import { transact, type GuardedItem, type TransactItem } from './transact.js';

export const invalidToken = () =>
  new AppError('invalid_token', {
    hint: 'Use the link of the latest mail, once, within its validity (24 hours to verify an address, 30 minutes to reset a password); ask for a new mail if it has passed.',
  });

const emailTakenMeanwhile = () =>
  new AppError('email_taken', {
    hint: 'Another account took this address after the change was asked for; change to another address with PUT /v1/me/email.',
  });

/** The token, its slot (taken from any older token of the purpose, which is void from then on) and the mails that carry it. */
export function issueWrites(record: AccountTokenRecord, mails: readonly MailRecord[]): TransactItem[] {
  return [
    putTransactItem(entities.accountToken, record),
    putTransactItem(
      entities.accountTokenSlot,
      { ...slotOf(record), token_id: record.id, expires_at: record.expires_at },
      { ifAbsent: false },
    ),
    ...mails.map((mail) => putTransactItem(entities.mail, mail)),
  ];
}

export const issueAccountToken = (record: AccountTokenRecord, mails: readonly MailRecord[]) =>
  transact(issueWrites(record, mails));

/** Strongly consistent: a token mailed a moment ago is found. */
export const getAccountToken = (id: string) =>
  getItem(entities.accountToken, keys.accountToken(id), { consistent: true });

/** A token's use: its slot emptied only while the token still holds it (neither used nor voided). */
function useSlot(record: AccountTokenRecord): TransactItem {
  const { purpose, subject } = slotOf(record);
  return {
    Delete: { Key: keys.accountTokenSlot(purpose, subject), ...conditionRequest(when.is('token_id', record.id)) },
  };
}

/** The address of the token is the account's and is now verified. */
export async function verifyEmailWith(record: AccountTokenRecord & { user_id: string }): Promise<void> {
  await transact(
    [
      useSlot(record),
      {
        Update: updateRequest({
          key: keys.user(record.user_id),
          set: { email_verified: true },
          when: when.is('email', record.email),
        }),
      },
    ],
    invalidToken,
  );
}

/**
 * The account moves to the token's address: the user, the unique email claim (with the password
 * hash it holds) and the copies of the address on the user's memberships, all at once. The new
 * claim is put only if absent: an account that took the address meanwhile wins (`email_taken`).
 */
export async function changeEmailWith(
  record: AccountTokenRecord & { user_id: string },
  user: UserRecord,
  credential: EmailCredential,
  workspaceIds: readonly string[],
): Promise<void> {
  const items: TransactItem[] = [
    useSlot(record),
    {
      Update: updateRequest({
        key: keys.user(user.id),
        set: { email: record.email, email_verified: true },
        when: when.is('email', user.email),
      }),
    },
    {
      Delete: {
        Key: keys.email(user.email),
        ...conditionRequest([when.is('user_id', user.id), when.is('password_hash', credential.password_hash)]),
      },
    },
    putTransactItem(entities.email(record.email), credential),
    ...workspaceIds.map((workspaceId) => ({
      Update: updateRequest({
        key: keys.membership(workspaceId, user.id),
        set: { email: record.email },
        when: when.exists(),
      }),
    })),
  ];
  const NEW_CLAIM = 3;
  await transact(items, (index) => (index === NEW_CLAIM ? emailTakenMeanwhile() : invalidToken()));
}

/**
 * The password of the token's account is replaced, if the address is still the account's, with
 * `also` (the second factor's spend of its code) in the same transaction: a refused code leaves
 * the token usable, a used token spends no code.
 */
export async function resetPasswordWith(
  record: AccountTokenRecord & { user_id: string },
  passwordHash: string,
  also?: GuardedItem,
): Promise<void> {
  const items: TransactItem[] = [
    useSlot(record),
    {
      Update: updateRequest({
        key: keys.email(record.email),
        set: { password_hash: passwordHash },
        when: when.is('user_id', record.user_id),
      }),
    },
  ];
  if (also) items.push(also.item);
  await transact(items, (index) => (also && index === items.length - 1 ? also.refused() : invalidToken()));
}
