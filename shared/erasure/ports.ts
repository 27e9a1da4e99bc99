/** What the deletion routes hand work to: the erasure queue (now) and its scheduler (after the grace period). */
import type { ErasureQueue, ErasureScheduler } from '../ports/erasure-queue.js';
import { eventBridgeErasureSchedulerFromConfig } from '../ports/aws/eventbridge-erasure-scheduler.js';
import { sqsErasureQueueFromConfig } from '../ports/aws/sqs-erasure-queue.js';

export interface DeletionPorts {
  erasure: ErasureQueue;
  erasureScheduler: ErasureScheduler;
}

/** The AWS adapters, from config (as in Lambda); the local runtime passes its own. */
export const erasureNowPortsFromConfig = (): Pick<DeletionPorts, 'erasure'> => ({
  erasure: sqsErasureQueueFromConfig(),
});

/** As above, with the scheduler for the grace period (the account deletion only). */
export const deletionPortsFromConfig = (): DeletionPorts => ({
  erasure: sqsErasureQueueFromConfig(),
  erasureScheduler: eventBridgeErasureSchedulerFromConfig(),
});
