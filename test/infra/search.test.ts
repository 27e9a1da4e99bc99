/** The search resources as CDK synthesises them: the domain, the indexer on the stream, grants, alarms. */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDataTable } from '../../infra/data-table.js';
import { apiFunction } from '../../infra/lambda-defaults.js';
import { SEARCH_LAG_ALARM_MS, SearchIndexing } from '../../infra/search.js';
import type { RouteName } from '../../shared/http/contract/route-table.js';

type Resource = { Type: string; Properties: Record<string, any> };

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'SearchTest');
  const table = createDataTable(stack, 'Table', { deletionProtection: false });
  const environment = { TABLE_NAME: table.tableName };
  const route = apiFunction(stack, 'SearchPostsRoute', 'functions/search/search-posts.ts', environment);
  new SearchIndexing(stack, 'Search', {
    table,
    environment,
    routeFunctions: new Map<RouteName, NodejsFunction>([['searchPosts', route]]),
    alarmTopic: new Topic(stack, 'Alarms'),
  });
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

describe('search (CDK)', () => {
  it('is one OpenSearch domain at the cost floor: one t3.small.search node, gp3, HTTPS with TLS 1.2, encrypted', () => {
    const domains = ofType('AWS::OpenSearchService::Domain');
    expect(domains).toHaveLength(1);
    expect(domains[0]![1].Properties).toMatchObject({
      EngineVersion: expect.stringMatching(/^OpenSearch_/),
      ClusterConfig: { InstanceCount: 1, InstanceType: 't3.small.search', ZoneAwarenessEnabled: false },
      EBSOptions: { EBSEnabled: true, VolumeSize: 10, VolumeType: 'gp3' },
      DomainEndpointOptions: { EnforceHTTPS: true, TLSSecurityPolicy: 'Policy-Min-TLS-1-2-2019-07' },
      NodeToNodeEncryptionOptions: { Enabled: true },
      EncryptionAtRestOptions: { Enabled: true },
    });
    // No resource policy: access is by the IAM identity policies below, every request signed.
    expect(domains[0]![1].Properties.AccessPolicies).toBeUndefined();
  });

  it('feeds posts, profiles, follower counts and post removals from the stream to the indexer, a batch at once', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 0,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { NewImage: { entity: { S: ['post'] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { NewImage: { entity: { S: ['profile'] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { NewImage: { entity: { S: ['follower_count'] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['REMOVE'],
              dynamodb: { Keys: { pk: { S: [{ prefix: 'POST#' }] }, sk: { S: ['POST'] } } },
            }),
          },
        ],
      },
    });
  });

  it('gives the indexer and the search routes the endpoint and index access on this domain only, no table writes to the indexer', () => {
    const functions = ofType('AWS::Lambda::Function').filter(
      ([, r]) => r.Properties.Environment?.Variables?.SEARCH_ENDPOINT,
    );
    expect(functions).toHaveLength(2);
    for (const [, fn] of functions)
      expect(fn.Properties.Environment.Variables.SEARCH_ENDPOINT).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.stringMatching(/^SearchDomain/), 'DomainEndpoint'] }]],
      });
    const statements = ofType('AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement as any[]);
    const opensearch = statements.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('es:')));
    expect(opensearch.length).toBeGreaterThanOrEqual(2);
    for (const statement of opensearch) {
      for (const resource of [statement.Resource].flat())
        expect(JSON.stringify(resource)).toMatch(/SearchDomain[0-9A-F]+", ?"Arn"/);
    }
    const tableWrites = statements.filter((s) =>
      [s.Action].flat().some((a: string) => /dynamodb:(Put|Update|Delete|BatchWrite)/.test(a)),
    );
    expect(tableWrites).toEqual([]);
  });

  it('alarms on failures waiting, lag, errors and the domain’s health, notifying the alarm topic', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms.map((a) => a.MetricName).sort()).toEqual(
      [
        'ApproximateNumberOfMessagesVisible',
        'ClusterIndexWritesBlocked',
        'ClusterStatus.red',
        'Errors',
        'IteratorAge',
      ].sort(),
    );
    expect(alarms.find((a) => a.MetricName === 'IteratorAge')!.Threshold).toBe(SEARCH_LAG_ALARM_MS);
    for (const alarm of alarms) expect(alarm.AlarmActions).toHaveLength(1);
  });
});
