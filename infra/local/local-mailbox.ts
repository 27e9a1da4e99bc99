/**
 * The MailSender port on this machine: each mail an RFC 5322 message (`.eml`, multipart/alternative
 * with its text and HTML bodies, 8bit UTF-8, so the link reads whole in the file) under a
 * directory, `DATA_DIR/mail` or a temporary one (`--in-memory`). A developer reads every mail the
 * service sent without a mail server: the files themselves, `GET /local/mail`, or the console's
 * Mail page.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutgoingMail } from '../../shared/domain/mail.js';
import type { MailSender } from '../../shared/ports/mail-sender.js';

/** A mail as `GET /local/mail` lists it. */
export interface MailboxItem {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  sent_at: string;
}

const CRLF = '\r\n';
const SENT_AT = 'X-Local-Sent-At';
const MAIL_ID = 'X-Mail-Id';

/** A header value as RFC 2047 asks for text that is not printable ASCII. */
const encodedWord = (text: string) =>
  /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`;
const decodedWord = (value: string) =>
  value.replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));

/** The RFC 5322 message of a mail. */
export function toEml(mail: OutgoingMail, from: string, sentAt: Date): string {
  const boundary = `=_mail_${mail.id}`;
  const part = (type: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      'Content-Transfer-Encoding: 8bit',
      '',
      body.replace(/\r?\n/g, CRLF),
    ].join(CRLF);
  return [
    `Message-ID: <${mail.id}@localhost>`,
    `Date: ${sentAt.toUTCString().replace('GMT', '+0000')}`,
    `From: ${encodedWord(from)}`,
    `To: ${mail.to}`,
    `Subject: ${encodedWord(mail.subject)}`,
    'MIME-Version: 1.0',
    `${MAIL_ID}: ${mail.id}`,
    `${SENT_AT}: ${sentAt.toISOString()}`,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    part('text/plain', mail.text),
    part('text/html', mail.html),
    `--${boundary}--`,
    '',
  ].join(CRLF);
}

/** The listed fields of a message this mailbox wrote (undefined: not one of its messages). */
export function fromEml(eml: string): MailboxItem | undefined {
  const headerEnd = eml.indexOf(CRLF + CRLF);
  if (headerEnd < 0) return undefined;
  const headers = new Map<string, string>();
  for (const line of eml.slice(0, headerEnd).split(CRLF)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const boundary = /boundary="([^"]+)"/.exec(headers.get('content-type') ?? '')?.[1];
  const id = headers.get(MAIL_ID.toLowerCase());
  if (!boundary || !id) return undefined;
  const bodies = new Map<string, string>();
  for (const part of eml.slice(headerEnd + 4).split(`--${boundary}`)) {
    const split = part.indexOf(CRLF + CRLF);
    const type = /content-type:\s*([^;\r\n]+)/i.exec(part.slice(0, split))?.[1];
    if (split >= 0 && type)
      bodies.set(
        type,
        part
          .slice(split + 4)
          .replace(/\r\n$/, '')
          .replace(/\r\n/g, '\n'),
      );
  }
  return {
    id,
    to: headers.get('to') ?? '',
    subject: decodedWord(headers.get('subject') ?? ''),
    text: bodies.get('text/plain') ?? '',
    html: bodies.get('text/html') ?? '',
    sent_at: headers.get(SENT_AT.toLowerCase()) ?? '',
  };
}

export interface LocalMailboxOptions {
  /** A temporary directory instead of `dataDir/mail` (`--in-memory`). */
  inMemory: boolean;
  dataDir: string;
  from: string;
  now?: () => Date;
}

/** How many mails a listing answers at most (the newest). */
export const MAILBOX_LIST_MAX = 100;

export class LocalMailbox implements MailSender {
  readonly dir: string;
  private readonly now: () => Date;

  constructor(private readonly options: LocalMailboxOptions) {
    this.now = options.now ?? (() => new Date());
    if (options.inMemory) this.dir = mkdtempSync(join(tmpdir(), 'social-network-mail-'));
    else mkdirSync((this.dir = join(options.dataDir, 'mail')), { recursive: true });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const sentAt = this.now();
    // Named by time, then id: the directory lists in the order mail was sent. Written whole, then renamed into place.
    const name = `${sentAt.toISOString().replace(/[:.]/g, '-')}_${mail.id}.eml`;
    const partial = join(this.dir, `.${name}.partial`);
    await writeFile(partial, toEml(mail, this.options.from, sentAt));
    await rename(partial, join(this.dir, name));
  }

  /** The newest mails first, to one address (any case) or to all. */
  async list(to?: string): Promise<MailboxItem[]> {
    const names = (await readdir(this.dir))
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .reverse();
    const wanted = to?.trim().toLowerCase();
    const items: MailboxItem[] = [];
    for (const name of names) {
      if (items.length >= MAILBOX_LIST_MAX) break;
      const item = fromEml(await readFile(join(this.dir, name), 'utf8'));
      if (item && (!wanted || item.to.toLowerCase() === wanted)) items.push(item);
    }
    return items;
  }
}
