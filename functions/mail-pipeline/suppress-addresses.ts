/**
 * Lambda: the SNS topic of the mail configuration set's bounces and complaints → each address
 * marked, so the mail consumer sends it nothing more. Marking is idempotent: a redelivered
 * notification marks again.
 */
import type { SNSEvent } from 'aws-lambda';
import { suppressionsOf } from '../../shared/mail/ses-notifications.js';
import { logger } from '../../shared/logger.js';
import { suppressAddress } from '../../shared/store/mail.js';

export const handler = async (event: SNSEvent): Promise<void> => {
  const now = new Date();
  for (const record of event.Records) {
    const suppressions = suppressionsOf(record.Sns.Message, now);
    await Promise.all(suppressions.map(suppressAddress));
    logger.info('mail addresses suppressed', { count: suppressions.length });
  }
};
