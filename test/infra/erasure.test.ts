import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Domain, EngineVersion } from 'aws-cdk-lib/aws-opensearchservice';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Erasure,
  ERASURE_BATCH_SIZE,
  ERASURE_MAX_CONCURRENCY,
  ERASURE_MAX_RECEIVE_COUNT,
  ERASURE_STEP_TIMEOUT,
} from '../../infra/erasure.js';
import { apiFunction } from '../../infra/lambda-defaults.js';
import type { RouteName } from '../../shared/http/contract/route-table.js';
import { synthConstruct, TEST_ENV, type ConstructTemplate, type Statement } from '../support/construct-template.js';

let ofType: ConstructTemplate['ofType'];
let logicalId: ConstructTemplate['logicalId'];
let statementsOf: ConstructTemplate['statementsOf'];
const actions = (s: Statement) => [s.Action].flat();

beforeAll(() => {
  ({ ofType, logicalId, statementsOf } = synthConstruct(
    'ErasureTest',
    (stack, table, environment) => {
      const deleteMe = apiFunction(stack, 'DeleteMe', 'functions/identity/delete-me.ts', environment);
      new Erasure(stack, 'Erasure', {
        table,
        environment,
        routeFunctions: new Map<RouteName, typeof deleteMe>([['deleteMe', deleteMe]]),
        mediaBucket: new Bucket(stack, 'Media'),
        uploadsBucket: new Bucket(stack, 'Uploads'),
        exportBucket: new Bucket(stack, 'Archives'),
        searchDomain: new Domain(stack, 'Search', { version: EngineVersion.OPENSEARCH_2_17 }),
        alarmTopic: new Topic(stack, 'Alarms'),
      });
    },
    TEST_ENV,
  ));
});

describe('erasure (CDK)', () => {
  it('has a steps queue with a dead-letter queue, a visibility ≥ 6× the step timeout, and an alarm on the dead letters', () => {
    const dlq = logicalId('ErasureStepsDlq', 'AWS::SQS::Queue');
    const queue = ofType('AWS::SQS::Queue').find(([, q]) => q.Properties.RedrivePolicy)![1];
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: ERASURE_MAX_RECEIVE_COUNT,
    });
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * ERASURE_STEP_TIMEOUT.toSeconds());
    for (const [, q] of ofType('AWS::SQS::Queue')) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    const alarm = ofType('AWS::CloudWatch::Alarm')[0]![1];
    expect(alarm.Properties.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }]);
    expect(alarm.Properties.Threshold).toBe(1);
  });

  it('runs the step function on the queue, one message a batch, bounded, reporting failures per message', () => {
    const fn = logicalId('ErasureStep', 'AWS::Lambda::Function');
    const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName.Ref === fn)![1];
    expect(mapping.Properties).toMatchObject({
      BatchSize: ERASURE_BATCH_SIZE,
      ScalingConfig: { MaximumConcurrency: ERASURE_MAX_CONCURRENCY },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('lets the step query and erase the table (never scan it), delete media under their prefixes and export archives, and enqueue its next step', () => {
    const statements = statementsOf('ErasureStep');
    const all = statements.flatMap(actions);
    expect(all).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']));
    expect(all).not.toContain('dynamodb:Scan');
    expect(all).toEqual(expect.arrayContaining(['sqs:SendMessage', 's3:DeleteObject']));
    const deletes = statements.find((s) => actions(s).includes('s3:DeleteObject'))!;
    expect(JSON.stringify(deletes.Resource)).toContain('/media/*');
    expect(JSON.stringify(deletes.Resource)).toContain('/incoming/*');
    expect(JSON.stringify(deletes.Resource)).toContain(logicalId('Archives', 'AWS::S3::Bucket'));
    expect(all).not.toContain('s3:PutObject');
    expect(all).not.toContain('dynamodb:DeleteTable');
  });

  it('lets EventBridge Scheduler start a job on the queue, and the deletion route create a schedule in the erasure group only', () => {
    const group = ofType('AWS::Scheduler::ScheduleGroup')[0]![1];
    expect(group.Properties.Name).toContain('erasures');
    const route = statementsOf('DeleteMe');
    const create = route.find((s) => actions(s).includes('scheduler:CreateSchedule'))!;
    expect(JSON.stringify(create.Resource)).toContain('erasures/*');
    const pass = route.find((s) => actions(s).includes('iam:PassRole'))!;
    expect(pass.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
    expect(route.flatMap(actions)).toContain('sqs:SendMessage');
  });
});
