import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { AuthorCards } from '../../infra/author-cards.js';
import { STREAM_READING, synthConstruct, type Resource } from '../support/construct-template.js';

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = synthConstruct(
    'AuthorCardsTest',
    (stack, table, environment) => new AuthorCards(stack, 'AuthorCards', { table, environment }),
  ));
});

describe('author cards (CDK)', () => {
  it('feeds profile MODIFY records of the table stream to the refresh, with retries, bisection and a failure queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({ eventName: ['MODIFY'], dynamodb: { NewImage: { entity: { S: ['profile'] } } } }),
          },
        ],
      },
    });
    template.resourceCountIs('AWS::SQS::Queue', 1);
  });

  it('may read profiles, query the posts index and update posts, and write nothing else', () => {
    const tableActions = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[])
      .flatMap((s) => [s.Action].flat())
      .filter((action) => action.startsWith('dynamodb:') && !STREAM_READING.includes(action));
    expect(new Set(tableActions)).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']));
  });
});
