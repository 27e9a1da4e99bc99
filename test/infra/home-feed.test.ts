import { beforeAll, describe, expect, it } from 'vitest';
import { FEED_WRITER_BATCH_SIZE, FEED_WRITER_MAX_CONCURRENCY } from '../../infra/feed-event-sources.js';
import {
  FEED_FAN_OUT_PARALLELIZATION,
  FEED_MAX_RECEIVE_COUNT,
  FEED_QUEUE_VISIBILITY,
  FEED_WRITER_TIMEOUT,
  HomeFeed,
} from '../../infra/home-feed.js';
import {
  STREAM_READING,
  synthConstruct,
  TEST_ENV,
  type ConstructTemplate,
  type Resource,
  type Statement,
} from '../support/construct-template.js';

const FEED_KEYS = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FEED#*', 'FEEDLARGE#*', 'FEEDAUTHOR#*'] } };

let resources: Record<string, Resource>;
let ofType: ConstructTemplate['ofType'];
let logicalId: ConstructTemplate['logicalId'];
let statementsOf: ConstructTemplate['statementsOf'];
const mappingOf = (functionPrefix: string) => {
  const fn = logicalId(functionPrefix, 'AWS::Lambda::Function');
  return ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName.Ref === fn)![1];
};
const actions = (s: Statement) => [s.Action].flat();

beforeAll(() => {
  ({ resources, ofType, logicalId, statementsOf } = synthConstruct(
    'FeedTest',
    (stack, table, environment) => new HomeFeed(stack, 'Feed', { table, environment }),
    TEST_ENV,
  ));
});

describe('home feed (CDK)', () => {
  it('has a feed queue with a dead-letter queue and a visibility timeout ≥ 6× the writer timeout', () => {
    const dlq = logicalId('FeedInboxesDlq', 'AWS::SQS::Queue');
    const queue = ofType('AWS::SQS::Queue').find(([, q]) => q.Properties.RedrivePolicy)![1];
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: FEED_MAX_RECEIVE_COUNT,
    });
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * FEED_WRITER_TIMEOUT.toSeconds());
    expect(queue.Properties.VisibilityTimeout).toBe(FEED_QUEUE_VISIBILITY.toSeconds());
    for (const [, q] of ofType('AWS::SQS::Queue')) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('runs the fan-out on the table stream, filtered to publications of posts and to new follows, with retries and a failure queue', () => {
    const mapping = mappingOf('FeedFanOut');
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ParallelizationFactor: FEED_FAN_OUT_PARALLELIZATION,
      MaximumRetryAttempts: 10,
    });
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] });
    expect(mapping.Properties.DestinationConfig.OnFailure.Destination).toEqual({
      'Fn::GetAtt': [logicalId('FeedFanOutFailures', 'AWS::SQS::Queue'), 'Arn'],
    });
    const patterns = mapping.Properties.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      {
        eventName: ['INSERT', 'MODIFY'],
        dynamodb: { NewImage: { entity: { S: ['post'] }, status: { S: ['published'] }, kind: { S: ['post'] } } },
      },
      { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['follow'] } } } },
    ]);
  });

  it('runs the writer from the feed queue with ReportBatchItemFailures, a batch size and a concurrency limit', () => {
    const mapping = mappingOf('FeedWriter');
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^FeedInboxes(?!Dlq)/), 'Arn'] },
      BatchSize: FEED_WRITER_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: FEED_WRITER_MAX_CONCURRENCY },
    });
    const writer = resources[logicalId('FeedWriter', 'AWS::Lambda::Function')]!;
    expect(writer.Properties.Timeout).toBe(FEED_WRITER_TIMEOUT.toSeconds());
    for (const fn of ['FeedWriter', 'FeedFanOut'])
      expect(resources[logicalId(fn, 'AWS::Lambda::Function')]!.Properties.Environment.Variables, fn).toMatchObject({
        TABLE_NAME: expect.anything(),
        FEED_QUEUE_URL: { Ref: expect.stringMatching(/^FeedInboxes(?!Dlq)/) },
      });
  });

  it('lets both functions read the table, write only the feed’s own items, and send only to the feed queue', () => {
    for (const fn of ['FeedFanOut', 'FeedWriter']) {
      const statements = statementsOf(fn);
      const table = statements.filter((s) => actions(s).some((a) => a.startsWith('dynamodb:')));
      const writes = table.filter((s) => actions(s).some((a) => /Put|Update|Write|Delete/.test(a)));
      expect(writes, fn).toEqual([
        expect.objectContaining({
          Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem'],
          Condition: FEED_KEYS,
        }),
      ]);
      const reads = table
        .filter((s) => !writes.includes(s))
        .flatMap(actions)
        .filter((a) => !STREAM_READING.includes(a));
      expect(new Set(reads), fn).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query']));
      const sends = statements.filter((s) => actions(s).includes('sqs:SendMessage'));
      const queues = [{ 'Fn::GetAtt': [expect.stringMatching(/^FeedInboxes(?!Dlq)/), 'Arn'] }];
      // The stream mapping's on-failure destination is written with the fan-out's role.
      if (fn === 'FeedFanOut') queues.push({ 'Fn::GetAtt': [expect.stringMatching(/^FeedFanOutFailures/), 'Arn'] });
      expect(
        sends.map((s) => s.Resource),
        fn,
      ).toEqual(expect.arrayContaining(queues));
      expect(sends, fn).toHaveLength(queues.length);
    }
  });
});
