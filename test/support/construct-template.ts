/**
 * One construct of the service synthesised alone, in a stack of its own beside the data table it
 * reads (esbuild bundling skipped), and the queries its infra tests ask of the template.
 */
import { App, Stack, type StackProps } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { expect } from 'vitest';
import { createDataTable } from '../../infra/data-table.js';

/** What a DynamoDB stream event source itself needs (granted besides what the function does). */
export const STREAM_READING = [
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
];

export type Resource = {
  Type: string;
  Properties: Record<string, any>;
  DependsOn?: string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

export type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

export interface ConstructTemplate {
  template: Template;
  resources: Record<string, Resource>;
  /** The resources of a CloudFormation type, as [logical id, resource]. */
  ofType: (type: string) => [string, Resource][];
  /** The logical id of the one resource of `type` whose id starts with `prefix`. */
  logicalId: (prefix: string, type: string) => string;
  /** Every IAM statement attached to a function's role (by the function's logical id prefix). */
  statementsOf: (functionPrefix: string) => Statement[];
}

/** A fixed account and region, for constructs whose template names them. */
export const TEST_ENV: StackProps = { env: { account: '123456789012', region: 'eu-west-1' } };

/** Synthesises `build`'s construct in a stack named `stackName` with the data table and the environment naming it. */
export function synthConstruct(
  stackName: string,
  build: (stack: Stack, table: Table, environment: { TABLE_NAME: string }) => unknown,
  props: StackProps = {},
): ConstructTemplate {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, stackName, props);
  const table = createDataTable(stack, 'Table', { deletionProtection: false });
  build(stack, table, { TABLE_NAME: table.tableName });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const logicalId = (prefix: string, type: string) => {
    const found = ofType(type).filter(([id]) => id.startsWith(prefix));
    expect(found, `${type} ${prefix}`).toHaveLength(1);
    return found[0]![0];
  };
  const statementsOf = (functionPrefix: string) => {
    const fn = resources[logicalId(functionPrefix, 'AWS::Lambda::Function')]!;
    const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
    return ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
  };
  return { template, resources, ofType, logicalId, statementsOf };
}
