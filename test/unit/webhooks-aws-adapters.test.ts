import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  atExpression,
  EventBridgeRetryScheduler,
  scheduleName,
} from '../../shared/ports/aws/eventbridge-retry-scheduler.js';
import { SqsDeliveryQueue, sqsDeliveryQueueFromConfig } from '../../shared/ports/aws/sqs-delivery-queue.js';
import { dispatch } from '../../shared/ports/delivery-ports.js';
import { deliveryMessage } from '../../shared/ports/delivery-queue.js';

const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);
beforeEach(() => {
  sqs.reset();
  scheduler.reset();
});

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/deliveries';
const DELIVERY = '3f0c8f8e-6a59-8b8e-9d0b-2a4a8f1f5b8e';
/** The message of attempt `attempt` of the delivery, and its body on the wire. */
const message = (attempt: number) =>
  deliveryMessage({ id: DELIVERY, webhook_event_id: 'e-1', webhook_endpoint_id: 'ep-1' }, attempt);
const wire = (attempt: number) =>
  JSON.stringify({ delivery_id: DELIVERY, attempt, webhook_event_id: 'e-1', webhook_endpoint_id: 'ep-1' });

describe('SQS delivery queue adapter', () => {
  it('sends the message without a delay for an immediate attempt', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    await new SqsDeliveryQueue(QUEUE_URL, new SQSClient({})).enqueue(message(1));
    const calls = sqs.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      MessageBody: wire(1),
    });
  });

  it("carries the delivery's event and endpoint ids, so the sender reads all three items in one round trip", async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    const delivery = { id: DELIVERY, webhook_event_id: 'e-1', webhook_endpoint_id: 'ep-1' };
    await new SqsDeliveryQueue(QUEUE_URL, new SQSClient({})).enqueue(deliveryMessage(delivery, 2));
    expect(JSON.parse(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.MessageBody!)).toEqual({
      delivery_id: DELIVERY,
      attempt: 2,
      webhook_event_id: 'e-1',
      webhook_endpoint_id: 'ep-1',
    });
  });

  it('uses DelaySeconds (whole seconds, rounded up, at most 900) for a retry', async () => {
    sqs.on(SendMessageCommand).resolves({});
    const queue = new SqsDeliveryQueue(QUEUE_URL, new SQSClient({}));
    await queue.enqueue(message(2), 4.2);
    await queue.enqueue(message(3), 300);
    await queue.enqueue(message(3), 5000);
    expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, MessageBody: wire(2), DelaySeconds: 5 },
      { QueueUrl: QUEUE_URL, MessageBody: wire(3), DelaySeconds: 300 },
      { QueueUrl: QUEUE_URL, MessageBody: wire(3), DelaySeconds: 900 },
    ]);
  });
});

describe('EventBridge Scheduler retry adapter', () => {
  const target = {
    groupName: 'SocialNetworkApi-webhook-retries',
    queueArn: 'arn:aws:sqs:eu-west-1:123456789012:deliveries',
    roleArn: 'arn:aws:iam::123456789012:role/scheduler',
  };

  it('creates a one-off at() schedule with the flexible window OFF that deletes itself and targets the queue', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
    await new EventBridgeRetryScheduler(target, new SchedulerClient({})).schedule(
      message(4),
      new Date('2026-11-21T10:30:00.250Z'),
    );
    const calls = scheduler.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      Name: `wh-${DELIVERY}-4`,
      GroupName: target.groupName,
      ScheduleExpression: 'at(2026-11-21T10:30:01)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: target.queueArn,
        RoleArn: target.roleArn,
        Input: wire(4),
      },
    });
  });

  it('names schedules validly (≤ 64 of [0-9a-zA-Z-_.]) and uniquely per attempt', () => {
    const name = scheduleName(message(10));
    expect(name).toMatch(/^[0-9a-zA-Z\-_.]{1,64}$/);
    expect(name).not.toBe(scheduleName(message(9)));
    expect(atExpression(new Date('2026-01-02T03:04:05.000Z'))).toBe('at(2026-01-02T03:04:05)');
  });

  it('treats an existing schedule of the same attempt (a redelivered message) as done', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', $metadata: {} } as never));
    await expect(
      new EventBridgeRetryScheduler(target, new SchedulerClient({})).schedule(message(5), new Date()),
    ).resolves.toBeUndefined();
  });
});

describe('dispatch over the AWS adapters', () => {
  const target = {
    groupName: 'webhook-retries',
    queueArn: 'arn:aws:sqs:eu-west-1:123456789012:deliveries',
    roleArn: 'arn:aws:iam::123456789012:role/scheduler',
  };
  const ports = () => ({
    queue: new SqsDeliveryQueue(QUEUE_URL, new SQSClient({})),
    scheduler: new EventBridgeRetryScheduler(target, new SchedulerClient({})),
  });
  const now = new Date('2026-11-21T10:00:00.000Z');

  it('puts a retry due within 15 minutes on the queue with DelaySeconds, and schedules nothing', async () => {
    sqs.on(SendMessageCommand).resolves({});
    await dispatch(ports(), message(3), new Date(now.getTime() + 900_000), now);
    expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, MessageBody: wire(3), DelaySeconds: 900 },
    ]);
    expect(scheduler.commandCalls(CreateScheduleCommand)).toHaveLength(0);
  });

  it('hands a later retry to EventBridge Scheduler, and sends nothing to the queue now', async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    await dispatch(ports(), message(4), new Date(now.getTime() + 1_800_000), now);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
    expect(scheduler.commandCalls(CreateScheduleCommand).map((c) => c.args[0].input.ScheduleExpression)).toEqual([
      'at(2026-11-21T10:30:00)',
    ]);
  });

  it('fails an enqueue with a clear message when the queue URL is not configured', async () => {
    const saved = process.env.DELIVERIES_QUEUE_URL;
    delete process.env.DELIVERIES_QUEUE_URL;
    try {
      await expect(sqsDeliveryQueueFromConfig().enqueue(message(1))).rejects.toThrow(
        'DELIVERIES_QUEUE_URL is not configured',
      );
    } finally {
      if (saved !== undefined) process.env.DELIVERIES_QUEUE_URL = saved;
    }
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });
});
