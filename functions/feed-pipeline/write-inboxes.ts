/** Lambda: the feed queue (SQS) → readers' inbox entries, and the walks that add read-time authors to followers. */
import { sqsFeedQueueFromConfig } from '../../shared/ports/aws/sqs-feed-queue.js';
import { feedQueueHandler } from './handlers.js';

export const handler = feedQueueHandler(sqsFeedQueueFromConfig());
