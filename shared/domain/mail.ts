/**
 * The mail the service sends, as recorded beside the change that asks for it (the request never
 * sends: a stream consumer does) and as rendered for the mail port. Mail never carries a password.
 */
import { newId } from './ids.js';

export const MAIL_TEMPLATES = [
  'verify_email',
  'confirm_new_email',
  'email_change_notice',
  'reset_password',
  'export_ready',
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

export interface MailRecord {
  id: string;
  to: string;
  template: MailTemplate;
  /** The console link the mail carries (with its token); removed from the item once sent. */
  link: string | null;
  /** The address an email change goes to (the notice to the old address names it). */
  new_email: string | null;
  created_at: string;
  /**
   * False for the reset asked for an address no account has: recorded all the same, so that both
   * answers do the same work (no account enumeration), and never sent.
   */
  deliver: boolean;
}

/** What the mail port sends: one message, both bodies. */
export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Mail items are kept a week: long enough to see what was sent, short enough not to pile up. */
export const MAIL_RETENTION_SECONDS = 7 * 86_400;

export const newMail = (
  now: Date,
  fields: Pick<MailRecord, 'to' | 'template'> & Partial<Pick<MailRecord, 'link' | 'new_email' | 'deliver'>>,
): MailRecord => ({
  id: newId(),
  to: fields.to,
  template: fields.template,
  link: fields.link ?? null,
  new_email: fields.new_email ?? null,
  created_at: now.toISOString(),
  deliver: fields.deliver ?? true,
});

/** The console's Account page, where a ready export is downloaded (the mail carries no download link of its own). */
export const consoleAccountLink = (base: string) => `${base}/console#/account`;

/** The console pages the links open. */
export const consoleLink = (base: string, page: 'verify-email' | 'reset-password', token: string) =>
  `${base}/console/${page}?token=${encodeURIComponent(token)}`;

interface Wording {
  subject: string;
  lines: string[];
  action?: string;
}

function wording(mail: MailRecord): Wording {
  switch (mail.template) {
    case 'verify_email':
      return {
        subject: 'Verify your email address',
        lines: ['Welcome! Confirm that this address is yours by opening the link below. It is valid for 24 hours.'],
        action: 'Verify my email address',
      };
    case 'confirm_new_email':
      return {
        subject: 'Confirm your new email address',
        lines: [
          'You asked to use this address for your account. Open the link below to confirm it; until then you log in with your previous address. The link is valid for 24 hours.',
        ],
        action: 'Confirm my new address',
      };
    case 'email_change_notice':
      return {
        subject: 'Your email address is being changed',
        lines: [
          `Someone signed in to your account asked to change its address to ${mail.new_email ?? 'another address'}.`,
          'Nothing changes until the new address is confirmed. If this was not you, change your password now.',
        ],
      };
    case 'reset_password':
      return {
        subject: 'Reset your password',
        lines: [
          'Someone asked to reset the password of the account with this address. Open the link below to choose a new one; it is valid for 30 minutes and works once.',
          'If this was not you, ignore this mail: your password stays as it is.',
        ],
        action: 'Choose a new password',
      };
    case 'export_ready':
      return {
        subject: 'Your data export is ready',
        lines: [
          'The archive of your data you asked for is ready. Download it from the Account page of the console within 7 days.',
        ],
        action: 'Open the Account page',
      };
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The mail as sent: the text body carries the link whole, the HTML body a button to it. */
export function renderMail(mail: MailRecord): OutgoingMail {
  const { subject, lines, action } = wording(mail);
  const link = action && mail.link ? mail.link : undefined;
  const text = `${[...lines, ...(link ? [link] : [])].join('\n\n')}\n`;
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(action!)}</a></p>`] : []),
    '</body></html>',
  ].join('\n');
  return { id: mail.id, to: mail.to, subject, text, html };
}
