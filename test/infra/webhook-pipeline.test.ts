import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { SENDER_MAX_CONCURRENCY } from '../../infra/sender-event-source.js';
import {
  FAN_OUT_PARALLELIZATION,
  FAN_OUT_WINDOW,
  MAX_RECEIVE_COUNT,
  QUEUE_VISIBILITY,
  SENDER_TIMEOUT,
  WebhookPipeline,
} from '../../infra/webhook-pipeline.js';
import { synthConstruct, TEST_ENV, type ConstructTemplate, type Resource } from '../support/construct-template.js';
import { ServiceTemplates } from './service-templates.js';

let template: Template;
let resources: Record<string, Resource>;
let ofType: ConstructTemplate['ofType'];
let logicalId: ConstructTemplate['logicalId'];
let statementsOf: ConstructTemplate['statementsOf'];
const actionsOf = (functionPrefix: string) =>
  statementsOf(functionPrefix).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

beforeAll(() => {
  ({ template, resources, ofType, logicalId, statementsOf } = synthConstruct(
    'PipelineTest',
    (stack, table, environment) => new WebhookPipeline(stack, 'Webhooks', { table, environment }),
    TEST_ENV,
  ));
});

describe('webhook pipeline (CDK)', () => {
  it('has a deliveries queue with a dead-letter queue and a visibility timeout ≥ 6× the sender timeout', () => {
    const dlq = logicalId('WebhooksDeliveriesDlq', 'AWS::SQS::Queue');
    const main = ofType('AWS::SQS::Queue').find(([, q]) => q.Properties.RedrivePolicy)![1];
    expect(main.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    expect(main.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * SENDER_TIMEOUT.toSeconds());
    expect(main.Properties.VisibilityTimeout).toBe(QUEUE_VISIBILITY.toSeconds());
  });

  it('runs the sender from the queue with ReportBatchItemFailures, a batch size and a concurrency limit', () => {
    const sender = logicalId('WebhooksSender', 'AWS::Lambda::Function');
    expect(resources[sender]!.Properties).toMatchObject({
      Timeout: SENDER_TIMEOUT.toSeconds(),
      Runtime: 'nodejs24.x',
      Handler: 'index.handler',
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: sender },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WebhooksDeliveries(?!Dlq)'), 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: SENDER_MAX_CONCURRENCY },
    });
    expect(resources[sender]!.Properties.Environment.Variables).toMatchObject({
      DELIVERIES_QUEUE_URL: expect.anything(),
      DELIVERIES_QUEUE_ARN: expect.anything(),
      SCHEDULER_GROUP_NAME: expect.anything(),
      SCHEDULER_ROLE_ARN: expect.anything(),
      TABLE_NAME: expect.anything(),
    });
  });

  it('runs the fan-out on the table stream, filtered to INSERTs of outbox events and writes of deliveries, in a tumbling window (for the shard id)', () => {
    const fanOut = logicalId('WebhooksFanOut', 'AWS::Lambda::Function');
    const mapping = ofType('AWS::Lambda::EventSourceMapping').find(
      ([, m]) => m.Properties.FunctionName.Ref === fanOut,
    )![1];
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] });
    expect(mapping.Properties.StartingPosition).toBe('TRIM_HORIZON');
    expect(mapping.Properties.BisectBatchOnFunctionError).toBe(true);
    expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.Properties.ParallelizationFactor).toBe(FAN_OUT_PARALLELIZATION);
    expect(mapping.Properties.DestinationConfig.OnFailure.Destination).toBeDefined();
    const patterns = mapping.Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['event'] } } } },
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: ['webhook_delivery'] } } } },
    ]);
    expect(mapping.Properties.TumblingWindowInSeconds).toBe(FAN_OUT_WINDOW.toSeconds());
  });

  it('has a schedule group and a role that only EventBridge Scheduler assumes, allowed only to send to the queue', () => {
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    const roleId = logicalId('WebhooksSchedulerRole', 'AWS::IAM::Role');
    const role = resources[roleId]!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Action: 'sts:AssumeRole',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
      }),
    ]);
    const policies = ofType('AWS::IAM::Policy').filter(([, p]) =>
      p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId),
    );
    const statements = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    expect(statements).toHaveLength(1);
    expect(statements[0].Action).toEqual(['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']);
    expect(statements[0].Resource).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^WebhooksDeliveries(?!Dlq)/), 'Arn'],
    });
  });

  it('grants least privilege: the sender creates schedules only in its group and passes only the scheduler role', () => {
    const statements = statementsOf('WebhooksSender');
    const create = statements.find((s) => s.Action === 'scheduler:CreateSchedule')!;
    expect(JSON.stringify(create.Resource)).toMatch(/schedule\/.*webhook-retries\/\*/);
    const pass = statements.find((s) => s.Action === 'iam:PassRole')!;
    expect(pass.Resource).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^WebhooksSchedulerRole/), 'Arn'] });
    expect(pass.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
    for (const fn of ['WebhooksSender', 'WebhooksFanOut', 'WebhooksSweeper']) {
      const actions = actionsOf(fn);
      expect(actions, fn).toContain('sqs:SendMessage');
      expect(actions, fn).toContain('dynamodb:Query');
      expect(
        actions.some((a) => a === '*' || a.endsWith(':*')),
        fn,
      ).toBe(false);
      expect(actions, fn).not.toContain('dynamodb:Scan');
      expect(actions, fn).not.toContain('dynamodb:DeleteItem');
    }
    expect(actionsOf('WebhooksFanOut')).toEqual(
      expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']),
    );
    expect(actionsOf('WebhooksFanOut')).not.toContain('scheduler:CreateSchedule');
    expect(actionsOf('WebhooksSweeper')).not.toContain('iam:PassRole');
  });

  it('runs the sweeper every minute', () => {
    const sweeper = logicalId('WebhooksSweeper', 'AWS::Lambda::Function');
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeper, 'Arn'] } })],
    });
  });

  it('is part of the service stack, and the manual retry and recovery routes may enqueue deliveries', () => {
    const templates = new ServiceTemplates();
    // The deliveries' group and the erasure's (account deletions after their grace period).
    templates.root.template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 2);
    const queue = templates.locate(templates.stack.webhooks.queue);
    for (const name of ['retryWebhookDelivery', 'recoverWebhookDeliveries'] as const) {
      // The route's function lives in the webhooks route stack; the queue's URL comes from the parent.
      const route = templates.locate(templates.stack.httpApi.routeFunctions.get(name)!);
      const url = templates.resource(route)!.Properties.Environment.Variables.DELIVERIES_QUEUE_URL;
      expect(templates.target(route.at, url), name).toEqual(queue);
    }
  });
});
