import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFY_PARALLELIZATION, NOTIFY_WINDOW, Notifications } from '../../infra/notifications.js';
import {
  NOTIFY_RECORD_MAX_AGE_SECONDS,
  NOTIFY_WATERMARK_KEEP_SECONDS,
} from '../../shared/notifications/from-stream.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { STREAM_READING, synthConstruct, type Resource, type Statement } from '../support/construct-template.js';

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = synthConstruct(
    'NotificationsTest',
    (stack, table, environment) => new Notifications(stack, 'Notifications', { table, environment }),
  ));
});

describe('the notifications consumer (CDK)', () => {
  it('reads outbox events, pending grants, likes and follows made or undone, and resolved reports, one batch per shard at a time, named by a tumbling window', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: STREAM_BATCHING.notify.batchSize,
      MaximumBatchingWindowInSeconds: STREAM_BATCHING.notify.batchingWindowSeconds,
      ParallelizationFactor: NOTIFY_PARALLELIZATION,
      TumblingWindowInSeconds: NOTIFY_WINDOW.toSeconds(),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: NOTIFY_RECORD_MAX_AGE_SECONDS,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['event'] } } } }) },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { NewImage: { entity: { S: ['access_grant'] }, status: { S: ['pending'] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'REMOVE'],
              dynamodb: { Keys: { sk: { S: [{ prefix: 'REACTION#' }] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'REMOVE'],
              dynamodb: { Keys: { sk: { S: [{ prefix: 'FOLLOWER#' }] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['MODIFY'],
              dynamodb: { NewImage: { entity: { S: ['report', 'reported_subject'] }, status: { S: ['resolved'] } } },
            }),
          },
        ],
      },
    });
    // A group's watermark of a shard is its last folded record: a shard's batches one after another.
    expect(NOTIFY_PARALLELIZATION).toBe(1);
    expect(NOTIFY_WATERMARK_KEEP_SECONDS).toBeGreaterThan(NOTIFY_RECORD_MAX_AGE_SECONDS);
    // Listed within 2 s (API.md): the batching window leaves room for the invocation.
    expect(STREAM_BATCHING.notify.batchingWindowSeconds).toBeLessThanOrEqual(1);
    template.resourceCountIs('AWS::SQS::Queue', 1);
  });

  it('reads point items, and writes only the notifications’ own items', () => {
    const statements = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:') && !STREAM_READING.includes(a)));
    const table = { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'Arn'] };
    expect(statements).toEqual([
      expect.objectContaining({ Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'], Resource: table }),
      expect.objectContaining({
        Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
        Resource: table,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['NOTIF#*', 'NOTIFGROUP#*'] } },
      }),
    ]);
  });
});
