/** The MailSender port on Amazon SES (API v2): from the configured sender, through the configuration set that reports bounces and complaints. */
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../../config.js';
import type { OutgoingMail } from '../../domain/mail.js';
import type { MailSender } from '../mail-sender.js';

export interface SesMailSenderOptions {
  from: string;
  configurationSet: string | undefined;
  client?: SESv2Client;
}

export class SesMailSender implements MailSender {
  private readonly client: SESv2Client;

  constructor(private readonly options: SesMailSenderOptions) {
    this.client = options.client ?? new SESv2Client({});
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.options.from,
        Destination: { ToAddresses: [mail.to] },
        Content: {
          Simple: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
          },
        },
        ...(this.options.configurationSet ? { ConfigurationSetName: this.options.configurationSet } : {}),
        // The mail's id, so SES's bounce and complaint notifications (and its logs) name it.
        EmailTags: [{ Name: 'mail_id', Value: mail.id }],
      }),
    );
  }
}

export const sesMailSenderFromConfig = (): MailSender =>
  new SesMailSender({ from: config.mailFrom, configurationSet: config.mailConfigurationSet });
