/**
 * The mail consumer: a mail item's INSERT on the table stream → the mail rendered and sent through
 * the MailSender port. The request that asked for it wrote the item in the same transaction as the
 * change it tells of, so no mail is lost to a crash; a retried batch re-reads the item and skips a
 * mail already sent (settled), so a mail goes twice only when the consumer dies between the send
 * and the settle. A suppressed address (bounce, complaint) and a mail recorded not to be delivered
 * (the reset for an unknown address) are settled without sending.
 */
import * as z from 'zod/mini';
import { MAIL_TEMPLATES, renderMail, type MailRecord } from '../domain/mail.js';
import { logger } from '../logger.js';
import { decodeImage } from '../pipeline/decode.js';
import { STREAM_STEP_RETRY, streamHandler, type StreamConsumer } from '../pipeline/stream-consumer.js';
import type { MailSender } from '../ports/mail-sender.js';
import type { StreamHandler } from '../ports/shard-stream-event.js';
import { entityTags } from '../store/keys.js';
import { mailState, settleMail } from '../store/mail.js';

const MailImage = z.object({
  entity: z.literal(entityTags.mail),
  id: z.string(),
  to: z.string(),
  template: z.enum(MAIL_TEMPLATES),
  link: z.nullable(z.string()),
  new_email: z.nullable(z.string()),
  created_at: z.string(),
  deliver: z.boolean(),
});

/** Mails sent at once from one batch. */
const MAILS_AT_ONCE = 8;

export type MailOutcome = 'sent' | 'already_sent' | 'suppressed' | 'not_delivered';

/** One mail: sent unless it was already, or must not be. */
export async function sendQueuedMail(mail: MailRecord, sender: MailSender, now: () => Date): Promise<MailOutcome> {
  const state = await mailState(mail);
  if (state.sent) return 'already_sent';
  const outcome: MailOutcome = !mail.deliver ? 'not_delivered' : state.suppressed ? 'suppressed' : 'sent';
  if (outcome === 'sent') await sender.send(renderMail(mail));
  await settleMail(mail.id, now());
  return outcome;
}

export function mailConsumer(ports: { sender: MailSender; now?: () => Date }): StreamConsumer<MailRecord> {
  const now = ports.now ?? (() => new Date());
  return {
    records: 'mail item',
    failure: 'mail send failed',
    select: (record) => {
      if (record.eventName !== 'INSERT') return undefined;
      const image = record.dynamodb?.NewImage;
      if (image?.entity?.S !== entityTags.mail) return undefined;
      const decoded = decodeImage(MailImage, image);
      if (!decoded.ok) return decoded;
      const { entity: _entity, ...mail } = decoded.record;
      return { ok: true, record: mail };
    },
    concurrency: MAILS_AT_ONCE,
    retry: STREAM_STEP_RETRY,
    each: async (mail) => {
      const outcome = await sendQueuedMail(mail, ports.sender, now);
      // The template and outcome only: never the link (its token) nor the address.
      logger.info('mail settled', { mail_id: mail.id, template: mail.template, outcome });
    },
    describe: (mail) => ({ mail_id: mail.id, template: mail.template }),
  };
}

/** The mail consumer's stream Lambda, given its sender. A failed mail is reported; the shard resumes at it. */
export const sendMailHandler = (ports: { sender: MailSender; now?: () => Date }): StreamHandler =>
  streamHandler(mailConsumer(ports), { reportBatchItemFailures: true });
