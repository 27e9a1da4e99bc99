import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { COUNTS_PARALLELIZATION, COUNTS_WINDOW, CounterFold } from '../../infra/counters.js';
import { COUNTS_RECORD_MAX_AGE_SECONDS, COUNTS_WATERMARK_KEEP_SECONDS } from '../../shared/counters/from-stream.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { STREAM_READING, synthConstruct, type Resource, type Statement } from '../support/construct-template.js';

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = synthConstruct(
    'CountersTest',
    (stack, table, environment) => new CounterFold(stack, 'Counters', { table, environment }),
  ));
});

describe('the counter fold (CDK)', () => {
  it('feeds INSERTs and REMOVEs of reaction, follow and quote-mark items (by their sort keys: a REMOVE has no image) to the fold, one batch per shard at a time, named by a tumbling window', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: STREAM_BATCHING['fold-counts'].batchSize,
      MaximumBatchingWindowInSeconds: STREAM_BATCHING['fold-counts'].batchingWindowSeconds,
      ParallelizationFactor: COUNTS_PARALLELIZATION,
      TumblingWindowInSeconds: COUNTS_WINDOW.toSeconds(),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: COUNTS_RECORD_MAX_AGE_SECONDS,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
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
              eventName: ['INSERT', 'REMOVE'],
              dynamodb: { Keys: { sk: { S: [{ prefix: 'QUOTE#' }] } } },
            }),
          },
        ],
      },
    });
    // A shard's watermark is its last counted record: its batches must be folded one after another.
    expect(COUNTS_PARALLELIZATION).toBe(1);
    // No record comes again after the keep of the watermarks that tell it was counted.
    expect(COUNTS_WATERMARK_KEEP_SECONDS).toBeGreaterThan(COUNTS_RECORD_MAX_AGE_SECONDS);
    // Counts may lag 2 s (API.md): the batching window leaves room for the invocation.
    expect(STREAM_BATCHING['fold-counts'].batchingWindowSeconds).toBeLessThanOrEqual(1);
    template.resourceCountIs('AWS::SQS::Queue', 1);
  });

  it('may only update the counters of posts, comments and profiles, and write nothing else', () => {
    const statements = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:') && !STREAM_READING.includes(a)));
    expect(statements).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['POST#*', 'COMMENT#*', 'PROFILE#*'] } },
      }),
    ]);
  });
});
