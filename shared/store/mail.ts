/** Mail items (domain/mail.ts) as the mail consumer reads and settles them, and the suppressed addresses. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { MailRecord } from '../domain/mail.js';
import { db, tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { entities, type MailSuppressionRecord } from './entities.js';
import { when } from './expressions.js';
import { getItem, putItem, recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { sendUpdate } from './update.js';

/** A mail item as stored: once sent, when, and its link gone. */
export type StoredMail = MailRecord & { sent_at?: string };

/** Whether the mail was sent already (a retried batch), and whether its address is suppressed: two reads side by side. */
export async function mailState(mail: Pick<MailRecord, 'id' | 'to'>): Promise<{ sent: boolean; suppressed: boolean }> {
  const [stored, suppression] = await Promise.all([
    db().send(new GetCommand({ TableName: tableName(), Key: keys.mail(mail.id), ConsistentRead: true })),
    getItem(entities.mailSuppression, keys.mailSuppression(mail.to)),
  ]);
  const record = recordOrUndefined<StoredMail>(entities.mail, stored.Item);
  return { sent: !record || record.sent_at !== undefined, suppressed: suppression !== undefined };
}

/**
 * The mail is settled: `sent_at` set and its link (the token) removed, so the table holds a mail's
 * token only until it left. Only while the item exists (it may have expired meanwhile).
 */
export async function settleMail(id: string, at: Date): Promise<void> {
  await conditionHeld(
    sendUpdate({ key: keys.mail(id), set: { sent_at: at.toISOString() }, remove: ['link'], when: when.exists() }),
  );
}

/** SES reported the address: no more mail goes to it. */
export const suppressAddress = (record: MailSuppressionRecord) =>
  putItem(entities.mailSuppression, record, { ifAbsent: false });
