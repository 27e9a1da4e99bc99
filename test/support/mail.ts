import { setTimeout as delay } from 'node:timers/promises';
import { inject } from 'vitest';
import type { MailboxItem } from '../../infra/local/local-mailbox.js';

/** The local mailbox of the test server, newest first (GET /local/mail). */
export async function mailbox(to: string, baseUrl = inject('baseUrl')): Promise<MailboxItem[]> {
  const response = await fetch(`${baseUrl}/local/mail?to=${encodeURIComponent(to)}`);
  const body = (await response.json()) as { data: { items: MailboxItem[] } };
  return body.data.items;
}

/**
 * The mailbox once it holds `count` mails to `to` (the stream consumer sends them a moment after
 * the request); throws when it does not within 15 s, well past the 5 s the runtime aims for
 * (the shared test server is busy).
 */
export async function waitForMail(to: string, count = 1, baseUrl?: string): Promise<MailboxItem[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const items = await mailbox(to, baseUrl);
    if (items.length >= count) return items;
    if (Date.now() > deadline) throw new Error(`expected ${count} mails to ${to}, found ${items.length}`);
    await delay(100);
  }
}

/** The token of the console link a mail's text carries whole. */
export function tokenOf(mail: Pick<MailboxItem, 'text'>): string {
  const link = /https?:\/\/\S+\/console\/[a-z-]+\?token=\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no console link in: ${mail.text}`);
  return new URL(link).searchParams.get('token')!;
}
