import { Role } from 'aws-cdk-lib/aws-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/http/contract/route-table.js';
import { CONSOLE_ROUTE_PATHS } from '../../infra/console.js';
import { routeGroupOf, routeStackId } from '../../infra/route-stacks.js';
import { DEFAULT_THROTTLE } from '../../infra/settings.js';
import {
  CLOUDFORMATION_RESOURCE_LIMIT,
  ROUTE_GROWTH_GOAL,
  routeHeadroom,
  TEMPLATE_RESOURCE_GOAL,
} from '../../infra/template-budget.js';
import { TABLE } from '../../shared/store/table.js';
import { keyOf, type Located, sameResource, ServiceTemplates } from './service-templates.js';

/** Reads the wiring of the synthesised templates: route → integration → function → role → policies. */
class Wiring {
  constructor(readonly templates: ServiceTemplates) {}
  private props(located: Located) {
    return this.templates.resource(located)!.Properties;
  }
  routes(): Located[] {
    return this.templates.ofType('AWS::ApiGatewayV2::Route');
  }
  routesWithKey(routeKey: string): Located[] {
    return this.routes().filter((route) => this.props(route).RouteKey === routeKey);
  }
  routeOf(route: { method: string; path: string }): Located {
    const matches = this.routesWithKey(`${route.method} ${route.path}`);
    expect(matches, `${route.method} ${route.path}`).toHaveLength(1);
    return matches[0]!;
  }
  /** The Lambda function behind a route, asserting the integration on the way (both in the route's template). */
  functionOf(route: Located): Located {
    const target = this.props(route).Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
    const [prefix, ref] = target['Fn::Join'][1];
    expect(prefix).toBe('integrations/');
    const integration = { at: route.at, id: ref.Ref };
    expect(this.templates.resource(integration)?.Type).toBe('AWS::ApiGatewayV2::Integration');
    expect(this.props(integration)).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    const [functionId, attribute] = this.props(integration).IntegrationUri['Fn::GetAtt'] as [string, string];
    expect(attribute).toBe('Arn');
    const fn = { at: route.at, id: functionId };
    expect(this.templates.resource(fn)?.Type).toBe('AWS::Lambda::Function');
    return fn;
  }
  /**
   * The function that answers a route of the route table: behind its HTTP API route, or for a
   * streaming route (whose HTTP API route redirects, infra/streaming-route.ts) behind the
   * streaming REST API's method of the same path, in the same template.
   */
  handlerOf(route: { method: string; path: string; streaming?: true }): Located {
    const behind = this.functionOf(this.routeOf(route));
    if (!route.streaming) return behind;
    expect(this.props(behind).Environment.Variables.STREAMING_API_URL).toBeDefined();
    const last = route.path.split('/').at(-1);
    const methods = Object.entries(behind.at.resources).filter(
      ([, r]) =>
        r.Type === 'AWS::ApiGateway::Method' &&
        r.Properties.HttpMethod === route.method &&
        behind.at.resources[r.Properties.ResourceId.Ref]?.Properties.PathPart === last,
    );
    expect(methods, `${route.method} ${route.path}`).toHaveLength(1);
    const uri = JSON.stringify(methods[0]![1].Properties.Integration.Uri);
    const [, functionId] = /\{"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]\}/.exec(uri)!;
    const fn = { at: behind.at, id: functionId! };
    expect(this.templates.resource(fn)?.Type).toBe('AWS::Lambda::Function');
    return fn;
  }
  /** The execution role of a function, in whichever template defines it. */
  roleOf(fn: Located): Located {
    return this.templates.target(fn.at, this.props(fn).Role);
  }
  /** The policies attached to a role (CDK puts them in the role's template). */
  statementsOf(role: Located): any[] {
    return Object.values(role.at.resources)
      .filter((p) => p.Type === 'AWS::IAM::Policy')
      .filter((p) => p.Properties.Roles.some((r: { Ref?: string }) => r.Ref === role.id))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
  }
  /**
   * Every IAM action granted to the function's role without a condition, with the resources of
   * the statements (as the role's template names them), and the statements that carry a condition.
   */
  permissionsOf(fn: Located): {
    actions: Set<string>;
    resources: unknown[];
    conditioned: { Action: unknown; Condition: unknown }[];
  } {
    const actions = new Set<string>();
    const resources: unknown[] = [];
    const conditioned: { Action: unknown; Condition: unknown }[] = [];
    for (const statement of this.statementsOf(this.roleOf(fn))) {
      if (statement.Condition) {
        conditioned.push({ Action: statement.Action, Condition: statement.Condition });
        continue;
      }
      for (const action of [statement.Action].flat()) actions.add(action);
      resources.push(...[statement.Resource].flat());
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
/** The agent card keeps its signature beside the profile item (a GET that writes one item). */
const CARD_SIGNATURE_KEEPING = {
  Action: 'dynamodb:PutItem',
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROFILE#*'] } },
};
/** What each GET route may write besides counting requests. */
const GET_WRITES: Record<string, object[]> = { getFeed: [FEED_CLEANING], getAgentCard: [CARD_SIGNATURE_KEEPING] };

describe('CDK stack (default context)', () => {
  let templates: ServiceTemplates;
  let wiring: Wiring;
  let table: Located;
  beforeAll(() => {
    templates = new ServiceTemplates();
    wiring = new Wiring(templates);
    table = templates.locate(templates.stack.table);
  });

  it('has exactly one API Gateway route per route-table entry, each on its own Lambda, in the nested stack of its resource', () => {
    expect(routeList.length).toBeGreaterThan(0);
    const functions = new Set<string>();
    const apiId = templates.locate(templates.stack.httpApi.api);
    for (const route of routeList) {
      const apiRoute = wiring.routeOf(route);
      const fn = wiring.handlerOf(route);
      // The function is the one named after the route (stable construct id), not a neighbour's.
      expect(sameResource(fn, templates.locate(templates.stack.httpApi.routeFunctions.get(route.name)!))).toBe(true);
      expect(templates.resource(fn)!.Properties.Description).toBe(`${route.method} ${route.path}`);
      // Its template is the route stack of its resource (the handler's folder), on the service's one API.
      expect(apiRoute.at.stack.node.id, route.name).toBe(routeStackId(routeGroupOf(route)));
      expect(apiRoute.at.stack.nestedStackParent).toBe(templates.stack);
      expect(templates.target(apiRoute.at, templates.resource(apiRoute)!.Properties.ApiId)).toEqual(apiId);
      functions.add(keyOf(fn));
    }
    expect(functions.size).toBe(routeList.length);
  });

  it('makes one nested stack per resource of the route table, and holds nothing else in them', () => {
    const groups = [...new Set(routeList.map(routeGroupOf))];
    const nested = templates.all.filter((t) => t !== templates.root);
    expect(nested.map((t) => t.stack.node.id)).toEqual(groups.map(routeStackId));
    for (const at of nested) {
      const types = [...new Set(Object.values(at.resources).map((r) => r.Type))].sort();
      // A streaming route is a method of the stack's streaming REST API (infra/streaming-route.ts):
      // the API, its path, deployment, stage and access log, and API Gateway's account logging role.
      const streams = routeList.some((r) => r.streaming && routeStackId(routeGroupOf(r)) === at.stack.node.id);
      const streaming = [
        'AWS::ApiGateway::Account',
        'AWS::ApiGateway::Deployment',
        'AWS::ApiGateway::Method',
        'AWS::ApiGateway::Resource',
        'AWS::ApiGateway::RestApi',
        'AWS::ApiGateway::Stage',
      ];
      expect(types, at.stack.node.id).toEqual([
        ...(streams ? streaming : []),
        'AWS::ApiGatewayV2::Integration',
        'AWS::ApiGatewayV2::Route',
        'AWS::IAM::Policy',
        'AWS::IAM::Role',
        'AWS::Lambda::Function',
        ...(streams ? ['AWS::Logs::LogGroup'] : []),
      ]);
    }
  });

  it('sends everything else ($default) to the not-found function, which no route shares', () => {
    const [fallback, ...others] = wiring.routesWithKey('$default');
    expect(others).toEqual([]);
    const fallbackFn = wiring.functionOf(fallback!);
    const routeFns = new Set(routeList.map((route) => keyOf(wiring.handlerOf(route))));
    expect(routeFns.has(keyOf(fallbackFn))).toBe(false);
    // Routes, $default, /mcp and the console's (infra/console.ts) and nothing else: no hand-written route can hide in a template.
    expect(wiring.routes()).toHaveLength(routeList.length + 2 + CONSOLE_ROUTE_PATHS.length);
  });

  it('serves /mcp (any method: the function answers 405 itself) from one function of its own with the tool routes’ table access and no queue', () => {
    const matches = wiring.routesWithKey('ANY /mcp');
    expect(matches).toHaveLength(1);
    const mcpFn = wiring.functionOf(matches[0]!);
    expect(sameResource(mcpFn, templates.locate(templates.stack.httpApi.mcpFunction))).toBe(true);
    const routeFns = new Set(routeList.map((route) => keyOf(wiring.handlerOf(route))));
    expect(routeFns.has(keyOf(mcpFn))).toBe(false);
    expect(templates.resource(mcpFn)!.Properties).toMatchObject({ MemorySize: 512, Timeout: 10 });
    const mcp = wiring.permissionsOf(mcpFn);
    const createPost = wiring.permissionsOf(wiring.handlerOf(routes.createPost));
    expect([...mcp.actions].sort()).toEqual([...createPost.actions].sort());
    expect([...mcp.actions].some((action) => action.startsWith('sqs:'))).toBe(false);
  });

  it("lets API Gateway invoke each HTTP function through one role of its template's own, allowed to invoke that template's functions and nothing else", () => {
    const withRoutes = templates.all.filter((at) =>
      Object.values(at.resources).some((r) => r.Type === 'AWS::ApiGatewayV2::Route'),
    );
    expect(withRoutes).toEqual(templates.all);
    const invokers = new Set<string>();
    for (const at of withRoutes) {
      const routesHere = wiring.routes().filter((route) => route.at === at);
      // The functions behind its HTTP routes, and those its streaming REST API's methods invoke.
      const streamingHere = routeList.filter((r) => r.streaming && wiring.routeOf(r).at === at);
      const httpFns = new Set([
        ...routesHere.map((route) => wiring.functionOf(route).id),
        ...streamingHere.map((route) => wiring.handlerOf(route).id),
      ]);
      const integrations = Object.values(at.resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Integration');
      const roleIds = new Set(
        integrations.map((i) => i.Properties.CredentialsArn?.['Fn::GetAtt']?.[0] as string | undefined),
      );
      expect([...roleIds], at.stack.node.path).toHaveLength(1);
      const [roleId] = [...roleIds];
      expect(roleId).toBeDefined();
      const role = { at, id: roleId! };
      invokers.add(keyOf(role));
      expect(templates.resource(role)!.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        expect.objectContaining({
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'apigateway.amazonaws.com' },
        }),
      ]);
      const statements = wiring.statementsOf(role);
      expect(statements.map((st) => st.Action)).toEqual(['lambda:InvokeFunction']);
      const invocable = new Set(
        [statements[0].Resource].flat().map((r: { 'Fn::GetAtt': [string, string] }) => r['Fn::GetAtt'][0]),
      );
      expect(invocable, at.stack.node.path).toEqual(httpFns);
    }
    expect(invokers.size).toBe(templates.all.length);
    // No resource-based permission per function: that would be one more resource per route.
    expect(
      templates
        .ofType('AWS::Lambda::Permission')
        .filter((p) => templates.resource(p)!.Properties.Principal === 'apigateway.amazonaws.com'),
    ).toEqual([]);
  });

  it('builds every Lambda of every template with the shared defaults', () => {
    const functions = templates.ofType('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThanOrEqual(routeList.length + 1);
    for (const fn of functions) {
      const { Properties: properties } = templates.resource(fn)!;
      expect(properties, keyOf(fn)).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogFormat: 'JSON' },
        Environment: {
          Variables: {
            NODE_OPTIONS: '--enable-source-maps',
            POWERTOOLS_SERVICE_NAME: 'social-network-api',
          },
        },
      });
      // The table's name, passed down to a nested stack as a parameter.
      expect(templates.target(fn.at, properties.Environment.Variables.TABLE_NAME), keyOf(fn)).toEqual(table);
      // Logs go to a log group that expires them.
      const logGroup = templates.target(fn.at, properties.LoggingConfig.LogGroup);
      expect(templates.resource(logGroup)).toMatchObject({
        Type: 'AWS::Logs::LogGroup',
        Properties: { RetentionInDays: 30 },
      });
    }
  });

  it('gives HTTP functions 512 MB and 10 seconds (a streaming route 15 minutes: one stream connection)', () => {
    const streaming = new Set(routeList.filter((r) => r.streaming).map((r) => keyOf(wiring.handlerOf(r))));
    expect(streaming.size).toBe(1);
    for (const route of wiring.routes()) {
      const located = wiring.functionOf(route);
      const fn = templates.resource(located)!;
      expect(fn.Properties).toMatchObject({ MemorySize: 512, Timeout: streaming.has(keyOf(located)) ? 900 : 10 });
    }
  });

  it('grants GET routes read-only access to the table and the other routes read-write', () => {
    const tableArn = { 'Fn::GetAtt': [table.id, 'Arn'] };
    for (const route of routeList) {
      const fn = wiring.handlerOf(route);
      // The execution roles are the parent's, where the table is.
      expect(wiring.roleOf(fn).at, route.name).toBe(templates.root);
      const { actions, resources } = wiring.permissionsOf(fn);
      expect([...actions], route.name).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      expect(resources, route.name).toContainEqual(tableArn);
      // Queries on the GSIs need the index ARNs too.
      expect(resources, route.name).toContainEqual({ 'Fn::Join': ['', [tableArn, '/index/*']] });
      for (const action of WRITE_ACTIONS) {
        expect(actions.has(action), `${route.name} (${route.method}) ${action}`).toBe(route.method !== 'GET');
      }
    }
  });

  it('gives the not-found function no access to the table beyond counting requests', () => {
    const fn = wiring.functionOf(wiring.routesWithKey('$default')[0]!);
    const { actions, conditioned } = wiring.permissionsOf(fn);
    expect([...actions].filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    expect(conditioned).toEqual([RATE_LIMIT_COUNTING]);
  });

  it('lets GET routes write rate-limit window items and nothing else; the feed read also its own stale feed items, the agent card its signature', () => {
    for (const route of routeList.filter((r) => r.method === 'GET')) {
      const { conditioned } = wiring.permissionsOf(wiring.handlerOf(route));
      expect(conditioned, route.name).toEqual([RATE_LIMIT_COUNTING, ...(GET_WRITES[route.name] ?? [])]);
    }
  });

  it('builds the one table from the shared layout, in the parent stack', () => {
    expect(templates.ofType('AWS::DynamoDB::Table')).toEqual([table]);
    expect(table.at).toBe(templates.root);
    const resource = templates.resource(table)!;
    const keySchema = (hash: string, range: string) => [
      { AttributeName: hash, KeyType: 'HASH' },
      { AttributeName: range, KeyType: 'RANGE' },
    ];
    expect(resource.Properties.KeySchema).toEqual(keySchema(TABLE.partitionKey, TABLE.sortKey));
    expect(resource.Properties.GlobalSecondaryIndexes).toEqual(
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
    expect(resource.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining(keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
    );
    expect(resource.Properties.AttributeDefinitions).toHaveLength(keyAttributes.length);
    expect(resource.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      StreamSpecification: { StreamViewType: TABLE.streamView },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
    expect(resource.DeletionPolicy).toBe('Retain');
    expect(resource.UpdateReplacePolicy).toBe('Retain');
  });

  it('throttles the default stage with the default limits', () => {
    expect(templates.ofType('AWS::ApiGatewayV2::Stage')).toHaveLength(1);
    templates.root.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_THROTTLE.rateLimit,
        ThrottlingBurstLimit: DEFAULT_THROTTLE.burstLimit,
      },
    });
  });

  it('outputs the API URL and the table name', () => {
    const outputs = templates.root.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toContain('execute-api');
    expect(outputs.TableName?.Value).toEqual({ Ref: table.id });
  });

  it(`keeps every template at or below ${TEMPLATE_RESOURCE_GOAL} resources (CloudFormation allows ${CLOUDFORMATION_RESOURCE_LIMIT})`, () => {
    expect(TEMPLATE_RESOURCE_GOAL).toBeLessThan(CLOUDFORMATION_RESOURCE_LIMIT);
    const loads = templates.loads();
    expect(loads).toHaveLength(templates.all.length);
    for (const load of loads) expect(load.resources, load.path).toBeLessThanOrEqual(TEMPLATE_RESOURCE_GOAL);
    // Every route of the route table is counted in exactly one template, none in the parent.
    expect(loads.reduce((sum, load) => sum + load.routes, 0)).toBe(routeList.length);
    expect(loads[0]).toMatchObject({ path: 'SocialNetworkApi', routes: 0 });
  });

  it(`has room for ${ROUTE_GROWTH_GOAL} more routes, spread over the resources as today's are, before any template passes ${TEMPLATE_RESOURCE_GOAL}`, () => {
    const loads = templates.loads();
    const headroom = routeHeadroom(loads, 3);
    expect(headroom).toBeGreaterThanOrEqual(ROUTE_GROWTH_GOAL);
    // The projection itself: that many more routes, shared out by today's proportions (rounded
    // up), keep every template within the goal, and the next template to fill is then full.
    const total = routeList.length;
    const projected = (extra: number) =>
      loads.map((load) => load.resources + 3 * Math.ceil((extra * load.routes) / total));
    expect(Math.max(...projected(headroom))).toBeLessThanOrEqual(TEMPLATE_RESOURCE_GOAL);
    expect(Math.max(...projected(headroom + 1))).toBeGreaterThan(TEMPLATE_RESOURCE_GOAL);
    // The projection counts each route stack's fixed part right: its invoke role and that role's policy.
    // (A stack with a streaming route adds its streaming REST API: the API, two path resources, the
    // method and its CORS preflight, deployment, stage, access log group, the account's logging
    // role and its Account setting, and the redirect function.)
    for (const load of loads.filter((l) => l.routes > 0))
      expect(load.resources - 3 * load.routes, load.path).toBe(load.path.includes('live') ? 13 : 2);
  });

  it('costs three resources per route, all in its route stack: function, integration and route', () => {
    for (const route of routeList) {
      const at = templates.of(templates.stack.httpApi.routeFunctions.get(route.name)!);
      // Logical ids of a route's resources start with its construct ids (Fn-<name>, Route-<name>…).
      const own = new RegExp(`^(?:Fn|Route)${route.name}(?=[A-Z0-9])`);
      const types = Object.entries(at.resources)
        .filter(([id]) => own.test(id))
        .map(([, r]) => r.Type)
        .sort();
      expect(types, route.name).toEqual([
        'AWS::ApiGatewayV2::Integration',
        'AWS::ApiGatewayV2::Route',
        'AWS::Lambda::Function',
      ]);
      // Nothing of the route is left in the parent (a dedicated execution role is the parent's, as every role is).
      const inParent = new RegExp(`^Http(?:Fn|Route)${route.name}(?=[A-Z0-9])`);
      expect(Object.keys(templates.root.resources).filter((id) => inParent.test(id))).toEqual([]);
    }
  });

  it('shares one execution role per access class between HTTP functions; the routes that enqueue (retry, recover, erasure), sign uploads (create media), clean the feed (read it), search or sign agent cards (the card, the JWKS) have their own, and so have the export routes (queue the job; sign downloads)', () => {
    const roleKey = (route: { method: string; path: string }) => keyOf(wiring.roleOf(wiring.handlerOf(route)));
    const routeRoles = new Map<string, string>(routeList.map((route) => [route.name, roleKey(route)]));
    const enqueuing = new Set<string>(['retryWebhookDelivery', 'recoverWebhookDeliveries']);
    const signing = new Set<string>(['createMedia']);
    const cleaning = new Set<string>(['getFeed']);
    const searching = new Set<string>(['searchProfiles', 'searchPosts']);
    const cards = new Set<string>(['getAgentCard', 'getJwks']);
    const erasing = new Set<string>(['deleteMe', 'deleteProfile']);
    // The export routes: one queues the job, two sign downloads of the archives.
    const exporting = new Set<string>(['createExport', 'getExport', 'listExports']);
    const dedicated = new Set([
      ...enqueuing,
      ...signing,
      ...cleaning,
      ...searching,
      ...cards,
      ...exporting,
      ...erasing,
    ]);
    const dedicatedRoles = [...dedicated].map((name) => routeRoles.get(name)!);
    expect(new Set(dedicatedRoles).size).toBe(dedicated.size);
    const others = routeList.filter((route) => !dedicated.has(route.name));
    const readRoles = new Set(others.filter((r) => r.method === 'GET').map((r) => routeRoles.get(r.name)));
    const writeRoles = new Set(others.filter((r) => r.method !== 'GET').map((r) => routeRoles.get(r.name)));
    // One role per class across all the route stacks, not one per stack.
    expect(readRoles.size).toBe(1);
    expect(writeRoles.size).toBe(1);
    expect(readRoles).not.toEqual(writeRoles);
    for (const role of dedicatedRoles) expect([...readRoles, ...writeRoles]).not.toContain(role);
    const notFoundRole = keyOf(wiring.roleOf(wiring.functionOf(wiring.routesWithKey('$default')[0]!)));
    expect([...readRoles, ...writeRoles, ...dedicatedRoles]).not.toContain(notFoundRole);
    // Only the retry and recovery routes may put deliveries on the queue (and the deletion routes erasure steps),
    // only the media upload may write to S3.
    for (const route of routeList) {
      const { actions } = wiring.permissionsOf(wiring.handlerOf(route));
      expect(actions.has('sqs:SendMessage'), route.name).toBe(
        enqueuing.has(route.name) || route.name === 'createExport' || erasing.has(route.name),
      );
      expect(actions.has('s3:GetObject'), route.name).toBe(['getExport', 'listExports'].includes(route.name));
      expect(actions.has('s3:PutObject'), route.name).toBe(signing.has(route.name));
      // Only the card signs with the KMS key, only the JWKS reads its public half.
      expect(actions.has('kms:Sign'), route.name).toBe(route.name === 'getAgentCard');
      expect(actions.has('kms:GetPublicKey'), route.name).toBe(route.name === 'getJwks');
    }
  });

  it('writes the logs of all HTTP functions to one log group, which only their roles may write to', () => {
    const httpFunctions = wiring.routes().map((route) => wiring.functionOf(route));
    const groups = new Set(
      httpFunctions.map((fn) =>
        keyOf(templates.target(fn.at, templates.resource(fn)!.Properties.LoggingConfig.LogGroup)),
      ),
    );
    expect(groups.size).toBe(1);
    const group = templates.target(
      httpFunctions[0]!.at,
      templates.resource(httpFunctions[0]!)!.Properties.LoggingConfig.LogGroup,
    );
    expect(group.at).toBe(templates.root);
    for (const fn of httpFunctions) {
      const { actions, resources } = wiring.permissionsOf(fn);
      expect([...actions].filter((a) => a.startsWith('logs:')).sort(), keyOf(fn)).toEqual([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
      ]);
      expect(resources, keyOf(fn)).toContainEqual({ 'Fn::GetAtt': [group.id, 'Arn'] });
      // No managed policy (AWSLambdaBasicExecutionRole would allow every log group of the account).
      expect(templates.resource(wiring.roleOf(fn))!.Properties.ManagedPolicyArns, keyOf(fn)).toBeUndefined();
    }
  });

  it('traces every function with X-Ray (active tracing)', () => {
    for (const fn of templates.ofType('AWS::Lambda::Function')) {
      expect(templates.resource(fn)!.Properties.TracingConfig, keyOf(fn)).toEqual({ Mode: 'Active' });
      expect([...wiring.permissionsOf(fn).actions], keyOf(fn)).toEqual(
        expect.arrayContaining(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']),
      );
    }
  });

  it('passes each route stack only what its routes need from the parent: the API, the table, the log group, the roles, a dedicated route’s queue, bucket, search domain or signing key', () => {
    const { httpApi, webhooks, media, search, agentCards, exports, erasure } = templates.stack;
    const roles = httpApi.roles.node.findAll().filter((c): c is Role => c instanceof Role);
    const allowed = new Set(
      [
        httpApi.api,
        templates.stack.table,
        httpApi.functionLogs,
        ...roles,
        webhooks.queue,
        webhooks.schedulerRole,
        media.buckets.uploads,
        search.domain,
        agentCards.key,
        erasure.queue,
        erasure.schedulerRole,
        erasure.scheduleGroup,
        exports.queue,
        exports.bucket,
      ].map((construct) => keyOf(templates.locate(construct))),
    );
    for (const at of templates.all.filter((t) => t !== templates.root)) {
      expect(at.stack.nested).toBe(true);
      const parameters = Object.keys(at.parameters);
      expect(parameters.length, at.stack.node.path).toBeGreaterThan(0);
      for (const parameter of parameters) {
        const source = templates.target(at, { Ref: parameter });
        expect(source.at, parameter).toBe(templates.root);
        expect(allowed.has(keyOf(source)), `${at.stack.node.id} ${parameter}`).toBe(true);
      }
      // Nothing goes back up but the streaming REST API's id and stage (the parent outputs its URL).
      const outputs = at.template.toJSON().Outputs as Record<string, { Value: unknown }> | undefined;
      const streams = routeList.some((r) => r.streaming && routeStackId(routeGroupOf(r)) === at.stack.node.id);
      if (!streams) expect(outputs, at.stack.node.path).toBeUndefined();
      else
        expect(Object.values(outputs ?? {}).map((o) => at.resources[(o.Value as { Ref: string }).Ref]?.Type)).toEqual([
          'AWS::ApiGateway::RestApi',
          'AWS::ApiGateway::Stage',
        ]);
    }
  });
});

describe('CDK stack (context)', () => {
  it.each([false, 'false'])('turns deletion protection off when deletionProtection is %j', (value) => {
    const { root } = new ServiceTemplates({ deletionProtection: value });
    root.template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
  });

  it('takes the stage throttling from context', () => {
    const { root } = new ServiceTemplates({ throttleRateLimit: '7.5', throttleBurstLimit: 13 });
    root.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 7.5, ThrottlingBurstLimit: 13 },
    });
  });

  it.each([
    ['deletionProtection', 'no'],
    ['throttleRateLimit', '-1'],
    ['throttleBurstLimit', '2.5'],
  ])('refuses %s=%j instead of deploying a default', (key, value) => {
    expect(() => new ServiceTemplates({ [key]: value })).toThrow(key);
  });
});
