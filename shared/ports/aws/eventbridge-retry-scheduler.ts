import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { config } from '../../config.js';
import { messageBody, type DeliveryMessage } from '../delivery-queue.js';
import type { RetryScheduler } from '../retry-scheduler.js';

export interface SchedulerTarget {
  groupName: string;
  /** The deliveries queue. */
  queueArn: string;
  /** The role EventBridge Scheduler assumes to send to the queue. */
  roleArn: string;
}

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, rounded up to the next whole second (never early). */
export function atExpression(at: Date): string {
  const rounded = new Date(Math.ceil(at.getTime() / 1000) * 1000);
  return `at(${rounded.toISOString().slice(0, 19)})`;
}

/** `wh-<delivery id>-<attempt>`: ≤ 64 characters of [0-9a-zA-Z-_.], unique per retry. */
export function scheduleName(message: DeliveryMessage): string {
  return `wh-${message.delivery_id}-${message.attempt}`.replace(/[^0-9a-zA-Z\-_.]/g, '').slice(0, 64);
}

/**
 * The AWS adapter: a one-off EventBridge Scheduler schedule that sends the message to the
 * deliveries queue at the due time, then deletes itself. Creating the same schedule twice (a
 * redelivered message) is harmless.
 */
export class EventBridgeRetryScheduler implements RetryScheduler {
  constructor(
    private readonly target: SchedulerTarget,
    private readonly client: SchedulerClient = new SchedulerClient({}),
  ) {}

  async schedule(message: DeliveryMessage, at: Date): Promise<void> {
    try {
      await this.client.send(
        new CreateScheduleCommand({
          Name: scheduleName(message),
          GroupName: this.target.groupName,
          ScheduleExpression: atExpression(at),
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: this.target.queueArn,
            RoleArn: this.target.roleArn,
            Input: messageBody(message),
          },
        }),
      );
    } catch (error) {
      if (error instanceof ConflictException) return;
      throw error;
    }
  }
}

/** The deployed schedule group, queue and role; without them, scheduling fails with a clear message. */
export function eventBridgeRetrySchedulerFromConfig(): RetryScheduler {
  const { schedulerGroupName, deliveriesQueueArn, schedulerRoleArn } = config;
  if (schedulerGroupName && deliveriesQueueArn && schedulerRoleArn) {
    return new EventBridgeRetryScheduler({
      groupName: schedulerGroupName,
      queueArn: deliveriesQueueArn,
      roleArn: schedulerRoleArn,
    });
  }
  return {
    schedule: () =>
      Promise.reject(new Error('SCHEDULER_GROUP_NAME / DELIVERIES_QUEUE_ARN / SCHEDULER_ROLE_ARN is not configured')),
  };
}
