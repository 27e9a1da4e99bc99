import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { config } from '../../config.js';
import type { ErasureMessage } from '../../domain/erasure.js';
import { erasureMessageBody, type ErasureScheduler } from '../erasure-queue.js';
import { atExpression, type SchedulerTarget } from './eventbridge-retry-scheduler.js';

/** `erasure-<job id>`: one schedule per job (≤ 64 characters of [0-9a-zA-Z-_.]). */
export const erasureScheduleName = (message: ErasureMessage): string =>
  `erasure-${message.job_id}`.replace(/[^0-9a-zA-Z\-_.]/g, '').slice(0, 64);

/**
 * The AWS adapter: the delivery retries' kind of schedule (one-off, deleted after it fires), its
 * target the erasure queue. A cancelled job's schedule is left to fire: the start finds the job
 * cancelled and does nothing, so cancelling needs no call to the scheduler.
 */
export class EventBridgeErasureScheduler implements ErasureScheduler {
  constructor(
    private readonly target: SchedulerTarget,
    private readonly client: SchedulerClient = new SchedulerClient({}),
  ) {}

  async schedule(message: ErasureMessage, at: Date): Promise<void> {
    try {
      await this.client.send(
        new CreateScheduleCommand({
          Name: erasureScheduleName(message),
          GroupName: this.target.groupName,
          ScheduleExpression: atExpression(at),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: { Arn: this.target.queueArn, RoleArn: this.target.roleArn, Input: erasureMessageBody(message) },
        }),
      );
    } catch (error) {
      if (error instanceof ConflictException) return;
      throw error;
    }
  }
}

/** The deployed schedule group, erasure queue and role; without them, scheduling fails with a clear message. */
export function eventBridgeErasureSchedulerFromConfig(): ErasureScheduler {
  const { schedulerGroupName, erasureQueueArn, schedulerRoleArn } = config;
  if (schedulerGroupName && erasureQueueArn && schedulerRoleArn)
    return new EventBridgeErasureScheduler({
      groupName: schedulerGroupName,
      queueArn: erasureQueueArn,
      roleArn: schedulerRoleArn,
    });
  return {
    schedule: () =>
      Promise.reject(new Error('SCHEDULER_GROUP_NAME / ERASURE_QUEUE_ARN / SCHEDULER_ROLE_ARN is not configured')),
  };
}
