/**
 * What an SES configuration set's event (published to SNS) says about addresses: a permanent
 * bounce or a complaint marks each recipient it names; a transient bounce (a full mailbox) does
 * not. Identity notifications (`notificationType`) read the same.
 */
import * as z from 'zod/mini';
import type { MailSuppressionRecord } from '../store/entities.js';

const Recipients = z.array(z.object({ emailAddress: z.string() }));

const SesEvent = z.object({
  eventType: z.optional(z.string()),
  notificationType: z.optional(z.string()),
  bounce: z.optional(z.object({ bounceType: z.string(), bouncedRecipients: Recipients })),
  complaint: z.optional(z.object({ complainedRecipients: Recipients })),
});

/** The suppressions an SNS message asks for (none for other events, or a message that is no SES event). */
export function suppressionsOf(message: string, at: Date): MailSuppressionRecord[] {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return [];
  }
  const parsed = SesEvent.safeParse(json);
  if (!parsed.success) return [];
  const { eventType, notificationType, bounce, complaint } = parsed.data;
  const type = eventType ?? notificationType;
  const mark = (reason: MailSuppressionRecord['reason'], recipients: { emailAddress: string }[]) =>
    recipients.map((r) => ({ email: r.emailAddress.toLowerCase(), reason, at: at.toISOString() }));
  if (type === 'Bounce' && bounce?.bounceType === 'Permanent') return mark('bounce', bounce.bouncedRecipients);
  if (type === 'Complaint' && complaint) return mark('complaint', complaint.complainedRecipients);
  return [];
}
