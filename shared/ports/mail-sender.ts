/**
 * MailSender port: one rendered mail out. Amazon SES API v2 in AWS (aws/ses-mail-sender.ts); the
 * local mailbox (`.eml` files under DATA_DIR/mail, infra/local/local-mailbox.ts) on this machine.
 * Only the mail consumer calls it, never a request.
 */
import type { OutgoingMail } from '../domain/mail.js';

export interface MailSender {
  send(mail: OutgoingMail): Promise<void>;
}
