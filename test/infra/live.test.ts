/**
 * Live in the stack (CDK template): the event-log consumer on the table stream, writing only the
 * logs.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Live } from '../../infra/live.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { synthConstruct, type Resource } from '../support/construct-template.js';

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = synthConstruct(
    'LiveTest',
    (stack, table, environment) => new Live(stack, 'Live', { table, environment }),
  ));
});

describe('the event-log consumer (CDK)', () => {
  it('reads notifications created or changed, and messages and feed entries created, at once as they come', () => {
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
            Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['message'] } } } }),
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
