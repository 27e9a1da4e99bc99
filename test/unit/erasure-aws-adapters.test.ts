/** The erasure's AWS adapters, on the exact commands they send: the steps queue (SQS) and the grace period's schedule. */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ErasureMessage } from '../../shared/domain/erasure.js';
import { EventBridgeErasureScheduler } from '../../shared/ports/aws/eventbridge-erasure-scheduler.js';
import { SqsErasureQueue } from '../../shared/ports/aws/sqs-erasure-queue.js';

const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);
beforeEach(() => {
  sqs.reset();
  scheduler.reset();
});

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/erasure';
const walk = (n: number): ErasureMessage => ({
  kind: 'walk',
  job_id: 'job-1',
  pass: 1,
  path: 'posts',
  subject: `profile-${n}`,
});
const start: ErasureMessage = { kind: 'start', job_id: 'a1b2c3d4-0000-4000-8000-000000000001' };

describe('SqsErasureQueue', () => {
  it("sends a pass's first pages in one call, held back by the pass's pause", async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Failed: [] });
    await new SqsErasureQueue(QUEUE_URL, new SQSClient({})).send([walk(0), walk(1), walk(2), walk(3)], 3);
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      Entries: [0, 1, 2, 3].map((i) => ({ Id: String(i), MessageBody: JSON.stringify(walk(i)), DelaySeconds: 3 })),
    });
  });

  it('sends a refused entry again, and a step without a pause has no DelaySeconds', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [{ Id: '0', Code: 'ServiceUnavailable', SenderFault: false }] })
      .resolves({ Failed: [] });
    await new SqsErasureQueue(QUEUE_URL, new SQSClient({})).send([walk(0)]);
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input.Entries).toEqual([{ Id: '0', MessageBody: JSON.stringify(walk(0)) }]);
  });
});

describe('EventBridgeErasureScheduler', () => {
  const target = {
    groupName: 'stack-erasures',
    queueArn: 'arn:aws:sqs:eu-west-1:123456789012:erasure',
    roleArn: 'arn:aws:iam::123456789012:role/scheduler',
  };

  it('creates one one-off schedule per job, at the grace period’s end, that deletes itself', async () => {
    scheduler.on(CreateScheduleCommand).resolves({});
    await new EventBridgeErasureScheduler(target, new SchedulerClient({})).schedule(
      start,
      new Date('2026-12-27T10:00:00.250Z'),
    );
    expect(scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input).toEqual({
      Name: `erasure-${start.job_id}`,
      GroupName: target.groupName,
      ScheduleExpression: 'at(2026-12-27T10:00:01)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: target.queueArn, RoleArn: target.roleArn, Input: JSON.stringify(start) },
    });
  });

  it('takes a schedule that already exists (a retried request) as done', async () => {
    scheduler
      .on(CreateScheduleCommand)
      .rejects(new ConflictException({ Message: 'exists', message: 'exists', $metadata: {} }));
    await expect(
      new EventBridgeErasureScheduler(target, new SchedulerClient({})).schedule(start, new Date()),
    ).resolves.toBeUndefined();
  });
});
