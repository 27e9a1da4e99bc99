/**
 * Live in the stack (CDK template): the event-log consumer on the table stream, writing only the
 * logs; GET /v1/stream reachable as a response-streaming function URL (the HTTP API cannot stream).
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Live } from '../../infra/live.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { synthConstruct, type Resource } from '../support/construct-template.js';
import { ServiceTemplates } from './service-templates.js';

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = synthConstruct(
    'LiveTest',
    (stack, table, environment) => new Live(stack, 'Live', { table, environment }),
  ));
});

describe('the event-log consumer (CDK)', () => {
  it("reads notifications created or changed, conversation items a message or the other side's read mark wrote, and feed entries created, at once as they come", () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: STREAM_BATCHING['live-events'].batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { NewImage: { entity: { S: ['notification'] } } },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: {
                NewImage: { entity: { S: ['conversation'] }, last_change: { S: ['message', 'read_by_other'] } },
              },
            }),
          },
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { entity: { S: ['feed_entry'] } } },
            }),
          },
        ],
      },
    });
  });

  it('writes only the event logs (one PutItem per event), under their partition keys', () => {
    const statements = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((r) => (r.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
    const writes = statements.filter((s) => JSON.stringify(s.Action).includes('PutItem'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      Action: 'dynamodb:PutItem',
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['EVENTS#*'] } },
    });
    expect(JSON.stringify(statements)).not.toMatch(/UpdateItem|DeleteItem|BatchWriteItem/);
  });
});

describe('GET /v1/stream (CDK)', () => {
  it('is a response-streaming function URL, the function lasting one stream connection (15 minutes)', () => {
    const service = new ServiceTemplates();
    const ofType = (type: string) => service.ofType(type).map((located) => service.resource(located)!);
    const urls = ofType('AWS::Lambda::Url');
    expect(urls).toHaveLength(1);
    expect(urls[0]!.Properties).toMatchObject({ AuthType: 'NONE', InvokeMode: 'RESPONSE_STREAM' });
    const streaming = ofType('AWS::Lambda::Function').filter((f) => f.Properties.Description === 'GET /v1/stream');
    expect(streaming).toHaveLength(1);
    expect(streaming[0]!.Properties.Timeout).toBe(900);
    expect(urls[0]!.Properties.TargetFunctionArn).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^FnstreamEvents/), 'Arn'],
    });
  });
});
