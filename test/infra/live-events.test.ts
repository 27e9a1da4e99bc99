/**
 * The live events in the template: the AppSync Events API with the Lambda authoriser for
 * connections and subscriptions and IAM for publishing, the `profiles` namespace, the publisher's
 * grants (appsync:EventPublish on that namespace, the table's reads of a feed.post), and its
 * stream event source filtered by key to the event log's inserts, with its failure queue and alarms.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { LiveEvents } from '../../infra/live-events.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { STREAM_READING, synthConstruct, TEST_ENV, type ConstructTemplate } from '../support/construct-template.js';

let live: ConstructTemplate;

beforeAll(() => {
  live = synthConstruct(
    'LiveTest',
    (stack, table, environment) =>
      new LiveEvents(stack, 'Live', { table, environment, alarmTopic: new Topic(stack, 'Alarms') }),
    TEST_ENV,
  );
});

const ownStatements = (fn: string) =>
  live
    .statementsOf(fn)
    .filter((s) => ![s.Action].flat().every((a) => STREAM_READING.includes(a) || a.startsWith('xray:')));

describe('live events (CDK)', () => {
  it('is an Event API: the Lambda authoriser connects and subscribes (uncached), IAM publishes', () => {
    const authorizer = live.logicalId('LiveAuthorize', 'AWS::Lambda::Function');
    live.template.hasResourceProperties('AWS::AppSync::Api', {
      EventConfig: {
        AuthProviders: Match.arrayWith([
          { AuthType: 'AWS_IAM' },
          {
            AuthType: 'AWS_LAMBDA',
            LambdaAuthorizerConfig: Match.objectLike({
              AuthorizerUri: { 'Fn::GetAtt': [authorizer, 'Arn'] },
              AuthorizerResultTtlInSeconds: 0,
            }),
          },
        ]),
        ConnectionAuthModes: [{ AuthType: 'AWS_LAMBDA' }],
        DefaultPublishAuthModes: [{ AuthType: 'AWS_IAM' }],
        DefaultSubscribeAuthModes: [{ AuthType: 'AWS_LAMBDA' }],
      },
    });
    // AppSync may invoke the authoriser.
    live.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [authorizer, 'Arn'] },
      Principal: 'appsync.amazonaws.com',
    });
    // The authoriser only reads (the credential, the profile, a membership).
    const actions = ownStatements('LiveAuthorize').flatMap((s) => [s.Action].flat());
    expect(actions.sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem']);
  });

  it('has the profiles namespace: clients subscribe through the authoriser, only IAM publishes', () => {
    live.template.resourceCountIs('AWS::AppSync::ChannelNamespace', 1);
    live.template.hasResourceProperties('AWS::AppSync::ChannelNamespace', {
      Name: 'profiles',
      PublishAuthModes: [{ AuthType: 'AWS_IAM' }],
      SubscribeAuthModes: [{ AuthType: 'AWS_LAMBDA' }],
    });
  });

  it("grants the publisher appsync:EventPublish on that namespace and the table's reads of a feed.post, nothing else", () => {
    // Besides its failure queue (the event source's on-failure destination, sent to by Lambda with its role).
    const statements = ownStatements('LivePublish').filter(
      (s) => !JSON.stringify(s.Resource).includes(live.logicalId('LiveFailures', 'AWS::SQS::Queue')),
    );
    expect(statements).toHaveLength(2);
    const [publish, reads] = [
      statements.find((s) => s.Action === 'appsync:EventPublish')!,
      statements.find((s) => s.Action !== 'appsync:EventPublish')!,
    ];
    const api = live.logicalId('LiveApi', 'AWS::AppSync::Api');
    expect(JSON.stringify(publish.Resource)).toContain(api);
    expect(JSON.stringify(publish.Resource)).toContain('channelNamespace/profiles');
    // The post (BatchGetItem) and the profile's blocks and mutes (its partition, no index): reads only.
    expect([reads.Action].flat().sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:Query']);
    expect(JSON.stringify(reads.Resource)).not.toContain('index');
    const publisher = live.resources[live.logicalId('LivePublish', 'AWS::Lambda::Function')]!;
    expect(publisher.Properties.Environment.Variables.APPSYNC_EVENTS_ENDPOINT).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [api, 'Dns.Http'] }]],
    });
  });

  it('feeds the publisher the event log inserts, filtered by key, with partial failures and a failure queue', () => {
    live.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: live.logicalId('LivePublish', 'AWS::Lambda::Function') },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: STREAM_BATCHING['live-publisher'].batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [live.logicalId('LiveFailures', 'AWS::SQS::Queue'), 'Arn'] } },
      },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { Keys: { pk: { S: [{ prefix: 'EVENTS#' }] } } },
            }),
          },
        ],
      },
    });
  });

  it('alarms on the failure queue and on the publisher falling behind', () => {
    const alarms = live.ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms.map((a) => a.MetricName).sort()).toEqual(['ApproximateNumberOfMessagesVisible', 'IteratorAge']);
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^Alarms/) }]);
  });
});
