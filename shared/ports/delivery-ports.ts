/**
 * The outside world of the delivery pipeline, chosen once per process: in Lambda the AWS adapters
 * (from config), in the local runtime the in-process adapters (installed by infra/local).
 */
import { config } from '../config.js';
import { MAX_QUEUE_DELAY_SECONDS, type DeliveryMessage, type DeliveryQueue } from './delivery-queue.js';
import { EventBridgeRetryScheduler } from './eventbridge-retry-scheduler.js';
import { undiciSender, type HttpSender } from './http-sender.js';
import type { RetryScheduler } from './retry-scheduler.js';
import { SqsDeliveryQueue } from './sqs-delivery-queue.js';

export interface DeliveryPorts {
  queue: DeliveryQueue;
  scheduler: RetryScheduler;
  http: HttpSender;
}

let current: DeliveryPorts | undefined;

function awsPorts(): DeliveryPorts {
  const missing = (name: string) => () => {
    throw new Error(`${name} is not configured`);
  };
  const queueUrl = config.deliveriesQueueUrl;
  const { schedulerGroupName, deliveriesQueueArn, schedulerRoleArn } = config;
  return {
    queue: queueUrl ? new SqsDeliveryQueue(queueUrl) : { send: missing('DELIVERIES_QUEUE_URL') },
    scheduler:
      schedulerGroupName && deliveriesQueueArn && schedulerRoleArn
        ? new EventBridgeRetryScheduler({ groupName: schedulerGroupName, queueArn: deliveriesQueueArn, roleArn: schedulerRoleArn })
        : { schedule: missing('SCHEDULER_GROUP_NAME / DELIVERIES_QUEUE_ARN / SCHEDULER_ROLE_ARN') },
    http: undiciSender,
  };
}

export function deliveryPorts(): DeliveryPorts {
  current ??= awsPorts();
  return current;
}

/** The local runtime (and tests) install their adapters here. */
export function useDeliveryPorts(ports: DeliveryPorts | undefined): void {
  current = ports;
}

/** Sends the message now or at `at`: on the queue with a delay up to 15 min, else via the scheduler. */
export async function dispatch(message: DeliveryMessage, at: Date, now: Date = new Date()): Promise<void> {
  const ports = deliveryPorts();
  const delaySeconds = Math.max(0, (at.getTime() - now.getTime()) / 1000);
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) await ports.queue.send(message, delaySeconds);
  else await ports.scheduler.schedule(message, at);
}
