/** Lambda: the table stream (outbox events) → delivery records + the deliveries queue (SQS). */
import { sqsDeliveryQueueFromConfig } from '../../shared/ports/aws/sqs-delivery-queue.js';
import { fanOutHandler } from './handlers.js';

export const handler = fanOutHandler({ queue: sqsDeliveryQueueFromConfig() });
