/**
 * A token and the mail that carries it, made together: what each account route records in one
 * transaction (store/account-tokens.ts `issueWrites`). `base` is the console's origin, which the
 * links open.
 */
import { newAccountToken, type AccountTokenRecord } from './account-tokens.js';
import { consoleAccountLink, consoleLink, newMail, type MailRecord } from './mail.js';

export interface TokenMail {
  record: AccountTokenRecord;
  mails: MailRecord[];
}

/** The verification of the account's address: at sign-up, or a resend. */
export function verificationMail(now: Date, base: string, user: { id: string; email: string }): TokenMail {
  const { record, token } = newAccountToken(now, 'verify_email', { user_id: user.id, email: user.email });
  return {
    record,
    mails: [newMail(now, { to: user.email, template: 'verify_email', link: consoleLink(base, 'verify-email', token) })],
  };
}

/** An email change: the link to the new address, a notice (without a link) to the old one. */
export function emailChangeMail(
  now: Date,
  base: string,
  user: { id: string; email: string },
  newEmail: string,
): TokenMail {
  const { record, token } = newAccountToken(now, 'change_email', { user_id: user.id, email: newEmail });
  return {
    record,
    mails: [
      newMail(now, { to: newEmail, template: 'confirm_new_email', link: consoleLink(base, 'verify-email', token) }),
      newMail(now, { to: user.email, template: 'email_change_notice', new_email: newEmail }),
    ],
  };
}

/**
 * A password reset asked for `email`: for an account, a token and its mail; for no account, the same
 * records (a token no one can use, a mail never delivered), so both do the same work.
 */
export function passwordResetMail(now: Date, base: string, email: string, userId: string | null): TokenMail {
  const { record, token } = newAccountToken(now, 'reset_password', { user_id: userId, email });
  return {
    record,
    mails: [
      newMail(now, {
        to: email,
        template: 'reset_password',
        link: consoleLink(base, 'reset-password', token),
        deliver: userId !== null,
      }),
    ],
  };
}

/** A data export is ready: a link to the console's Account page, where it is downloaded (no token: the page asks for a session). */
export const exportReadyMail = (now: Date, base: string, email: string): MailRecord =>
  newMail(now, { to: email, template: 'export_ready', link: consoleAccountLink(base) });
