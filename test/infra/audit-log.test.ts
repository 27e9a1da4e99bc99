import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../infra/audit-log.js';
import { STREAM_READING, synthConstruct, type Resource } from '../support/construct-template.js';

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = synthConstruct(
    'AuditLogTest',
    (stack, table, environment) => new AuditLog(stack, 'AuditLog', { table, environment }),
  ));
});

describe('audit log (CDK)', () => {
  it('feeds the stream records whose new image carries an audit stamp to the recorder, with retries, bisection and a failure queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumBatchingWindowInSeconds: 0,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: { NewImage: { written_by: { M: { request_id: { S: [{ exists: true }] } } } } },
            }),
          },
        ],
      },
    });
    template.resourceCountIs('AWS::SQS::Queue', 1);
  });

  it('may put audit entries, and write nothing else', () => {
    const tableActions = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
      .flatMap((s) => [s.Action].flat())
      .filter((action) => action.startsWith('dynamodb:') && !STREAM_READING.includes(action));
    expect(new Set(tableActions)).toEqual(new Set(['dynamodb:PutItem']));
  });
});
