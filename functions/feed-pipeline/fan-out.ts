/** Lambda: the table stream (published posts, new follows) → the feed queue (SQS) and backfilled inboxes. */
import { sqsFeedQueueFromConfig } from '../../shared/ports/aws/sqs-feed-queue.js';
import { feedStreamHandler } from './handlers.js';

export const handler = feedStreamHandler(sqsFeedQueueFromConfig());
