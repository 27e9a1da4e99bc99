/**
 * The single-use tokens a person receives by mail: verifying their address (at sign-up, on a
 * resend, or a new address they change to) and resetting their password. Only a hash of the secret
 * is stored (secret-tokens.ts). A token is good while it is the one its slot names: a newer token of
 * the same purpose and subject takes the slot (the older is void), and using it empties the slot in
 * the same conditional write that applies it (single use).
 */
import { newId } from './ids.js';
import { issueToken, parseMailToken, secretMatches, type MailTokenKind } from './secret-tokens.js';

export type AccountTokenPurpose = 'verify_email' | 'change_email' | 'reset_password';

export interface AccountTokenRecord {
  id: string;
  purpose: AccountTokenPurpose;
  /** The account; null for a reset asked for an address no account has (it can never be used). */
  user_id: string | null;
  /** The address the token proves (verify, change: the new one) or was asked for (reset). */
  email: string;
  secret_hash: string;
  created_at: string;
  expires_at: string;
}

/** Which slot a token takes: one per account for the verifications, one per address for resets. */
export interface TokenSlot {
  purpose: AccountTokenPurpose;
  subject: string;
}

export const TOKEN_LIFETIME_SECONDS: Record<AccountTokenPurpose, number> = {
  verify_email: 24 * 3600,
  change_email: 24 * 3600,
  reset_password: 30 * 60,
};

const KIND: Record<AccountTokenPurpose, MailTokenKind> = {
  verify_email: 'ev',
  change_email: 'ev',
  reset_password: 'pr',
};

export const slotOf = (record: Pick<AccountTokenRecord, 'purpose' | 'user_id' | 'email'>): TokenSlot => ({
  purpose: record.purpose,
  subject: record.purpose === 'reset_password' ? record.email : (record.user_id ?? record.email),
});

export function newAccountToken(
  now: Date,
  purpose: AccountTokenPurpose,
  fields: Pick<AccountTokenRecord, 'user_id' | 'email'>,
): { record: AccountTokenRecord; token: string } {
  const id = newId();
  const { token, secretHash } = issueToken(KIND[purpose], id);
  const record: AccountTokenRecord = {
    id,
    purpose,
    user_id: fields.user_id,
    email: fields.email,
    secret_hash: secretHash,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS[purpose] * 1000).toISOString(),
  };
  return { record, token };
}

/** The record id a presented token names, when it has the shape of a token of one of `purposes`. */
export const tokenIdOf = (token: string, kind: MailTokenKind) => parseMailToken(token, kind);

/**
 * Whether a presented token is the stored one, of an expected purpose, not expired, and for an
 * account: the secret compared in constant time. Whether it is still its slot's (not used, not
 * voided) is the write's condition.
 */
export function tokenUsable(
  presented: string,
  kind: MailTokenKind,
  record: AccountTokenRecord | undefined,
  now: Date,
): record is AccountTokenRecord & { user_id: string } {
  const parsed = parseMailToken(presented, kind);
  return (
    !!parsed &&
    !!record &&
    record.id === parsed.id &&
    KIND[record.purpose] === kind &&
    record.user_id !== null &&
    secretMatches(parsed.secret, record.secret_hash) &&
    Date.parse(record.expires_at) > now.getTime()
  );
}
