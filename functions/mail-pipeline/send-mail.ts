/** Lambda: the table stream, filtered to INSERTs of mail items → each mail sent through Amazon SES. */
import { sesMailSenderFromConfig } from '../../shared/ports/aws/ses-mail-sender.js';
import { sendMailHandler } from '../../shared/mail/send-queued-mail.js';

export const handler = sendMailHandler({ sender: sesMailSenderFromConfig() });
