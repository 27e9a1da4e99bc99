import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/http/contract/route-table.js';
import { CONSOLE_ROUTE_PATHS } from '../../infra/console.js';
import { DEFAULT_THROTTLE, stackSettings } from '../../infra/settings.js';
import { CLOUDFORMATION_RESOURCE_LIMIT, RESOURCE_BUDGET, SocialNetworkStack } from '../../infra/stack.js';
import { TABLE } from '../../shared/store/table.js';

type Resource = {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

/** The stack as `cdk synth` builds it from this context, with esbuild bundling skipped. */
function synth(context: Record<string, unknown> = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new SocialNetworkStack(app, 'SocialNetworkApi', stackSettings(app));
  return { stack, template: Template.fromStack(stack) };
}

/** Reads the wiring of the synthesised template: route → integration → function → role → policies. */
class Wiring {
  readonly resources: Record<string, Resource>;
  constructor(readonly template: Template) {
    this.resources = template.toJSON().Resources;
  }
  ofType(type: string): [string, Resource][] {
    return Object.entries(this.resources).filter(([, r]) => r.Type === type);
  }
  routesWithKey(routeKey: string): Resource[] {
    return this.ofType('AWS::ApiGatewayV2::Route')
      .filter(([, r]) => r.Properties.RouteKey === routeKey)
      .map(([, r]) => r);
  }
  /** The logical id of the Lambda function behind a route, asserting the integration on the way. */
  functionOf(route: Resource): string {
    const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
    const [prefix, ref] = target['Fn::Join'][1];
    expect(prefix).toBe('integrations/');
    const integration = this.resources[ref.Ref]!;
    expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
    expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    const [functionId, attribute] = integration.Properties.IntegrationUri['Fn::GetAtt'] as [string, string];
    expect(attribute).toBe('Arn');
    expect(this.resources[functionId]?.Type).toBe('AWS::Lambda::Function');
    return functionId;
  }
  /**
   * Every IAM action granted to the function's role without a condition, with the resources of
   * the statements, and the statements that carry a condition.
   */
  permissionsOf(functionId: string): {
    actions: Set<string>;
    resources: unknown[];
    conditioned: { Action: unknown; Condition: unknown }[];
  } {
    const roleId = this.resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;
    const actions = new Set<string>();
    const resources: unknown[] = [];
    const conditioned: { Action: unknown; Condition: unknown }[] = [];
    for (const [, policy] of this.ofType('AWS::IAM::Policy')) {
      if (!policy.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId)) continue;
      for (const statement of policy.Properties.PolicyDocument.Statement) {
        if (statement.Condition) {
          conditioned.push({ Action: statement.Action, Condition: statement.Condition });
          continue;
        }
        for (const action of [statement.Action].flat()) actions.add(action);
        resources.push(...[statement.Resource].flat());
      }
    }
    return { actions, resources, conditioned };
  }
}

const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const RATE_LIMIT_COUNTING = {
  Action: 'dynamodb:UpdateItem',
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATELIMIT#*'] } },
};
/** The feed read deletes stale inbox entries and unfollowed read-time authors, its reader's items only by kind. */
const FEED_CLEANING = {
  Action: ['dynamodb:BatchWriteItem', 'dynamodb:UpdateItem'],
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['FEED#*', 'FEEDLARGE#*', 'FEEDAUTHOR#*'] } },
};

describe('CDK stack (default context)', () => {
  let stack: SocialNetworkStack;
  let template: Template;
  let wiring: Wiring;
  let tableId: string;
  beforeAll(() => {
    ({ stack, template } = synth());
    wiring = new Wiring(template);
    tableId = stack.getLogicalId(stack.table.node.defaultChild as never);
  });

  it('has exactly one API Gateway route per route-table entry, each on its own Lambda', () => {
    expect(routeList.length).toBeGreaterThan(0);
    const functionIds = new Set<string>();
    for (const route of routeList) {
      const matches = wiring.routesWithKey(`${route.method} ${route.path}`);
      expect(matches, `${route.name}: ${route.method} ${route.path}`).toHaveLength(1);
      const functionId = wiring.functionOf(matches[0]!);
      // The function is the one named after the route (stable construct id), not a neighbour's.
      expect(functionId).toBe(
        stack.getLogicalId(stack.httpApi.routeFunctions.get(route.name)!.node.defaultChild as never),
      );
      expect(wiring.resources[functionId]!.Properties.Description).toBe(`${route.method} ${route.path}`);
      functionIds.add(functionId);
    }
    expect(functionIds.size).toBe(routeList.length);
  });

  it('sends everything else ($default) to the not-found function, which no route shares', () => {
    const [fallback] = wiring.routesWithKey('$default');
    expect(wiring.routesWithKey('$default')).toHaveLength(1);
    const fallbackFn = wiring.functionOf(fallback!);
    const routeFns = new Set(
      routeList.map((route) => wiring.functionOf(wiring.routesWithKey(`${route.method} ${route.path}`)[0]!)),
    );
    expect(routeFns.has(fallbackFn)).toBe(false);
    // Routes, $default, /mcp and the console's (infra/console.ts) and nothing else: no hand-written route can hide in the stack.
    expect(wiring.ofType('AWS::ApiGatewayV2::Route')).toHaveLength(routeList.length + 2 + CONSOLE_ROUTE_PATHS.length);
  });

  it('serves /mcp (any method: the function answers 405 itself) from one function of its own with the tool routes’ table access and no queue', () => {
    const matches = wiring.routesWithKey('ANY /mcp');
    expect(matches).toHaveLength(1);
    const mcpFn = wiring.functionOf(matches[0]!);
    expect(mcpFn).toBe(stack.getLogicalId(stack.httpApi.mcpFunction.node.defaultChild as never));
    const routeFns = new Set(
      routeList.map((route) => wiring.functionOf(wiring.routesWithKey(`${route.method} ${route.path}`)[0]!)),
    );
    expect(routeFns.has(mcpFn)).toBe(false);
    expect(wiring.resources[mcpFn]!.Properties).toMatchObject({ MemorySize: 512, Timeout: 10 });
    const mcp = wiring.permissionsOf(mcpFn);
    const createPost = wiring.permissionsOf(
      wiring.functionOf(wiring.routesWithKey(`${routes.createPost.method} ${routes.createPost.path}`)[0]!),
    );
    expect([...mcp.actions].sort()).toEqual([...createPost.actions].sort());
    expect([...mcp.actions].some((action) => action.startsWith('sqs:'))).toBe(false);
  });

  it('lets API Gateway invoke each HTTP function through one role, and nothing else', () => {
    const routes = wiring.ofType('AWS::ApiGatewayV2::Route').map(([, route]) => route);
    const httpFns = new Set(routes.map((route) => wiring.functionOf(route)));
    const integrations = wiring.ofType('AWS::ApiGatewayV2::Integration').map(([, i]) => i);
    const roleIds = new Set(
      integrations.map((i) => i.Properties.CredentialsArn?.['Fn::GetAtt']?.[0] as string | undefined),
    );
    expect([...roleIds]).toHaveLength(1);
    const [roleId] = [...roleIds];
    expect(roleId).toBeDefined();
    expect(wiring.resources[roleId!]!.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'apigateway.amazonaws.com' },
      }),
    ]);
    const statements = wiring
      .ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    expect(statements.map((st) => st.Action)).toEqual(['lambda:InvokeFunction']);
    const invocable = new Set(
      [statements[0].Resource].flat().map((r: { 'Fn::GetAtt': [string, string] }) => r['Fn::GetAtt'][0]),
    );
    expect(invocable).toEqual(httpFns);
    // No resource-based permission per function: that would be one more resource per route.
    expect(
      wiring.ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com'),
    ).toEqual([]);
  });

  it('builds every Lambda of the stack with the shared defaults', () => {
    const functions = wiring.ofType('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThanOrEqual(routeList.length + 1);
    for (const [id, fn] of functions) {
      expect(fn.Properties, id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogFormat: 'JSON' },
        Environment: {
          Variables: {
            TABLE_NAME: { Ref: tableId },
            NODE_OPTIONS: '--enable-source-maps',
            POWERTOOLS_SERVICE_NAME: 'social-network-api',
          },
        },
      });
      // Logs go to the function's own log group, which expires them.
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      expect(wiring.resources[logGroupId]).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        Properties: { RetentionInDays: 30 },
      });
    }
  });

  it('gives HTTP functions 512 MB and 10 seconds', () => {
    for (const [, route] of wiring.ofType('AWS::ApiGatewayV2::Route')) {
      const fn = wiring.resources[wiring.functionOf(route)]!;
      expect(fn.Properties).toMatchObject({ MemorySize: 512, Timeout: 10 });
    }
  });

  it('grants GET routes read-only access to the table and the other routes read-write', () => {
    for (const route of routeList) {
      const functionId = wiring.functionOf(wiring.routesWithKey(`${route.method} ${route.path}`)[0]!);
      const { actions, resources } = wiring.permissionsOf(functionId);
      expect([...actions], route.name).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      expect(resources, route.name).toContainEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
      // Queries on the GSIs need the index ARNs too.
      expect(resources, route.name).toContainEqual({
        'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/*']],
      });
      for (const action of WRITE_ACTIONS) {
        expect(actions.has(action), `${route.name} (${route.method}) ${action}`).toBe(route.method !== 'GET');
      }
    }
  });

  it('gives the not-found function no access to the table beyond counting requests', () => {
    const functionId = wiring.functionOf(wiring.routesWithKey('$default')[0]!);
    const { actions, conditioned } = wiring.permissionsOf(functionId);
    expect([...actions].filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    expect(conditioned).toEqual([RATE_LIMIT_COUNTING]);
  });

  it('lets GET routes write rate-limit window items and nothing else; the feed read also its own stale feed items', () => {
    for (const route of routeList.filter((r) => r.method === 'GET')) {
      const { conditioned } = wiring.permissionsOf(
        wiring.functionOf(wiring.routesWithKey(`${route.method} ${route.path}`)[0]!),
      );
      expect(conditioned, route.name).toEqual(
        route.name === 'getFeed' ? [RATE_LIMIT_COUNTING, FEED_CLEANING] : [RATE_LIMIT_COUNTING],
      );
    }
  });

  it('builds the one table from the shared layout', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const [[, table]] = wiring.ofType('AWS::DynamoDB::Table') as [[string, Resource]];
    const keySchema = (hash: string, range: string) => [
      { AttributeName: hash, KeyType: 'HASH' },
      { AttributeName: range, KeyType: 'RANGE' },
    ];
    expect(table.Properties.KeySchema).toEqual(keySchema(TABLE.partitionKey, TABLE.sortKey));
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    const keyAttributes = [
      TABLE.partitionKey,
      TABLE.sortKey,
      ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
    ];
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining(keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
    );
    expect(table.Properties.AttributeDefinitions).toHaveLength(keyAttributes.length);
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      StreamSpecification: { StreamViewType: TABLE.streamView },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });

  it('throttles the default stage with the default limits', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
      },
    });
  });

  it('outputs the API URL and the table name', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain('execute-api');
    expect(outputs.TableName?.Value).toEqual({ Ref: tableId });
  });

  it("keeps within its resource budget: 65 % of CloudFormation's 500 resources per stack", () => {
    expect(RESOURCE_BUDGET).toBe(Math.floor(0.65 * CLOUDFORMATION_RESOURCE_LIMIT));
    expect(Object.keys(wiring.resources).length).toBeLessThanOrEqual(RESOURCE_BUDGET);
  });

  it('costs three resources per route: function, integration and route', () => {
    for (const route of routeList) {
      // Logical ids of a route's resources start with its construct ids (Fn-<name>, Route-<name>…).
      const own = new RegExp(`^Http(?:Fn|Route)${route.name}(?=[A-Z0-9])`);
      const types = Object.entries(wiring.resources)
        .filter(([id]) => own.test(id))
        .map(([, r]) => r.Type)
        .sort();
      expect(types, route.name).toEqual([
        'AWS::ApiGatewayV2::Integration',
        'AWS::ApiGatewayV2::Route',
        'AWS::Lambda::Function',
      ]);
    }
  });

  it('shares one execution role per access class between HTTP functions; the routes that enqueue (retry, recover), sign uploads (create media) or clean the feed (read it) have their own', () => {
    const roleOf = (functionId: string) => wiring.resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;
    const routeRoles = new Map<string, string>(
      routeList.map((route) => [
        route.name,
        roleOf(wiring.functionOf(wiring.routesWithKey(`${route.method} ${route.path}`)[0]!)),
      ]),
    );
    const enqueuing = new Set<string>(['retryWebhookDelivery', 'recoverWebhookDeliveries']);
    const signing = new Set<string>(['createMedia']);
    const cleaning = new Set<string>(['getFeed']);
    const dedicated = new Set([...enqueuing, ...signing, ...cleaning]);
    const dedicatedRoles = [...dedicated].map((name) => routeRoles.get(name)!);
    expect(new Set(dedicatedRoles).size).toBe(dedicated.size);
    const others = routeList.filter((route) => !dedicated.has(route.name));
    const readRoles = new Set(others.filter((r) => r.method === 'GET').map((r) => routeRoles.get(r.name)));
    const writeRoles = new Set(others.filter((r) => r.method !== 'GET').map((r) => routeRoles.get(r.name)));
    expect(readRoles.size).toBe(1);
    expect(writeRoles.size).toBe(1);
    expect(readRoles).not.toEqual(writeRoles);
    for (const role of dedicatedRoles) expect([...readRoles, ...writeRoles]).not.toContain(role);
    const notFoundRole = roleOf(wiring.functionOf(wiring.routesWithKey('$default')[0]!));
    expect([...readRoles, ...writeRoles, ...dedicatedRoles]).not.toContain(notFoundRole);
    // Only the retry and recovery routes may put deliveries on the queue, only the media upload may write to S3.
    for (const route of routeList) {
      const { actions } = wiring.permissionsOf(
        wiring.functionOf(wiring.routesWithKey(`${route.method} ${route.path}`)[0]!),
      );
      expect(actions.has('sqs:SendMessage'), route.name).toBe(enqueuing.has(route.name));
      expect(actions.has('s3:PutObject'), route.name).toBe(signing.has(route.name));
    }
  });

  it('writes the logs of all HTTP functions to one log group, which only their roles may write to', () => {
    const httpFunctions = wiring.ofType('AWS::ApiGatewayV2::Route').map(([, route]) => wiring.functionOf(route));
    const groups = new Set(
      httpFunctions.map((id) => wiring.resources[id]!.Properties.LoggingConfig.LogGroup.Ref as string),
    );
    expect(groups.size).toBe(1);
    const [group] = [...groups];
    for (const id of httpFunctions) {
      const { actions, resources } = wiring.permissionsOf(id);
      expect([...actions].filter((a) => a.startsWith('logs:')).sort(), id).toEqual([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
      ]);
      expect(resources, id).toContainEqual({ 'Fn::GetAtt': [group, 'Arn'] });
      // No managed policy (AWSLambdaBasicExecutionRole would allow every log group of the account).
      const roleId = wiring.resources[id]!.Properties.Role['Fn::GetAtt'][0] as string;
      expect(wiring.resources[roleId]!.Properties.ManagedPolicyArns, id).toBeUndefined();
    }
  });

  it('traces every function with X-Ray (active tracing)', () => {
    for (const [id, fn] of wiring.ofType('AWS::Lambda::Function')) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect([...wiring.permissionsOf(id).actions], id).toEqual(
        expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']),
      );
    }
  });
});

describe('CDK stack (context)', () => {
  it.each([false, 'false'])('turns deletion protection off when deletionProtection is %j', (value) => {
    const { template } = synth({ deletionProtection: value });
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
  });

  it('takes the stage throttling from context', () => {
    const { template } = synth({ throttleRateLimit: '7.5', throttleBurstLimit: 13 });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 7.5, ThrottlingBurstLimit: 13 },
    });
  });

  it.each([
    ['deletionProtection', 'no'],
    ['throttleRateLimit', '-1'],
    ['throttleBurstLimit', '2.5'],
  ])('refuses %s=%j instead of deploying a default', (key, value) => {
    expect(() => synth({ [key]: value })).toThrow(key);
  });
});
