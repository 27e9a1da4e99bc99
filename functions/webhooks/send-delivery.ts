/** SQS → sender. Each record is `{ delivery_id, attempt }`; failures are reported per item. */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../../shared/logger.js';
import type { DeliveryMessage } from '../../shared/ports/delivery-queue.js';
import { deliver } from '../../shared/webhooks/deliver.js';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        await deliver(JSON.parse(record.body) as DeliveryMessage);
      } catch (error) {
        logger.error('webhook delivery failed to process', { messageId: record.messageId, error: error as Error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};
