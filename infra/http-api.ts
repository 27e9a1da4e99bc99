import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod as ApiMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { routeList, type RouteName } from '../shared/http/contract/route-table.js';
import { MCP_PATH } from '../shared/mcp/path.js';
import { ApiInvokeRole } from './api-invoke-role.js';
import { type AccessClass, FunctionRoles } from './function-roles.js';
import { apiFunction, LOG_RETENTION, splitApiFunction } from './lambda-defaults.js';
import { routeGroupOf, RouteStack } from './route-stacks.js';
import { STREAM_CONNECTION, StreamingApi } from './streaming-route.js';
import type { Throttle } from './throttle.js';

export interface ServiceHttpApiProps {
  table: ITable;
  /** Variables every HTTP function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
  throttle: Throttle;
  /**
   * Routes whose function another construct grants more than the table (e.g. a queue): they get
   * an execution role of their own instead of their access class's shared one.
   */
  dedicatedRoles?: readonly RouteName[];
  /** Reserved concurrency per route; routes not named share the account's unreserved pool. */
  reservedConcurrency?: Partial<Record<RouteName, number>>;
}

/** Construct id of a route's function; derived from the route table's key so it never changes by accident. */
export const routeFunctionId = (name: string) => `Fn-${name}`;
export const NOT_FOUND_FUNCTION_ID = 'Fn-routeNotFound';
export const MCP_FUNCTION_ID = 'Fn-mcp';

/**
 * The HTTP API: one Lambda and one route for each entry of the route table (shared/http/contract/route-table.ts), and a `$default`
 * route that answers unknown paths and methods with 404/405 in the service's envelope. Routes
 * are never listed here: adding one to the route table is all it takes to deploy it.
 *
 * The routes live in nested stacks, one per resource (infra/route-stacks.ts); the API, its
 * stage, the shared log group, the execution roles, `$default` and `/mcp` stay in the parent.
 */
export class ServiceHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The function behind each route, for grants beyond the table (e.g. a queue) by other constructs. */
  readonly routeFunctions: ReadonlyMap<RouteName, NodejsFunction>;
  /** The one log group of the HTTP functions (streams are named after each function). */
  readonly functionLogs: LogGroup;
  /** Execution roles per access class, for further HTTP functions of the service. */
  readonly roles: FunctionRoles;
  /** What API Gateway invokes the parent stack's functions through, for further routes of the service there. */
  readonly invoker: ApiInvokeRole;
  /** The nested stacks of the route table's routes, one per resource, in the route table's order. */
  readonly routeStacks: readonly RouteStack[];
  /** The MCP endpoint's function (`/mcp`), which runs the tool routes' handlers in-process. */
  readonly mcpFunction: LambdaFunction;
  /**
   * The REST APIs that serve the streaming routes (route.streaming), one in each route stack that
   * has one (infra/streaming-route.ts); the HTTP API's route of the same key redirects there.
   */
  readonly streamingApis: readonly StreamingApi[];

  constructor(scope: Construct, id: string, props: ServiceHttpApiProps) {
    super(scope, id);

    // The stage is created below, explicitly, because the implicit default stage cannot carry
    // throttling or access logs.
    this.api = new HttpApi(this, 'Api', { createDefaultStage: false, description: 'Social network service API (v1)' });

    // Throttled requests (429) and gateway errors never reach a Lambda; this log is where they show.
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttle.rateLimit, burstLimit: props.throttle.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            error: '$context.error.message',
          }),
        ),
      },
    });

    // One log group for all HTTP functions instead of one each: Lambda names every stream
    // `YYYY/MM/DD/<function name>[version]…` in a shared group, and every JSON line carries the
    // function name, so nothing is lost while the stack saves a resource per route.
    this.functionLogs = new LogGroup(this, 'FunctionLogs', { retention: LOG_RETENTION });
    this.roles = new FunctionRoles(this, 'Roles', { table: props.table, logGroup: this.functionLogs });
    const dedicated = new Set<RouteName>(props.dedicatedRoles ?? []);
    this.invoker = new ApiInvokeRole(this, 'Invoker');

    const functions = new Map<RouteName, NodejsFunction>();
    const stacks = new Map<string, RouteStack>();
    const streamingApis = new Map<RouteStack, StreamingApi>();
    const streamingApiOf = (stack: RouteStack) => {
      let api = streamingApis.get(stack);
      if (!api)
        streamingApis.set(
          stack,
          (api = new StreamingApi(stack, 'Streaming', {
            throttle: props.throttle,
            environment: props.environment,
            redirectRole: this.roles.forClass('readWrite'),
            logGroup: this.functionLogs,
            invoker: stack.invoker,
          })),
        );
      return api;
    };
    const seenKeys = new Set<string>();
    for (const route of routeList) {
      const routeKey = `${route.method} ${route.path}`;
      // API Gateway would reject the deployment; say which entry is the duplicate instead.
      if (seenKeys.has(routeKey))
        throw new Error(`route table: ${routeKey} is declared twice (again as ${route.name})`);
      seenKeys.add(routeKey);

      const group = routeGroupOf(route);
      let stack = stacks.get(group);
      if (!stack) stacks.set(group, (stack = new RouteStack(this, group)));
      // Least privilege: a read route cannot change data even if its code is wrong or exploited.
      const access: AccessClass = route.method === 'GET' ? 'read' : 'readWrite';
      const fn = apiFunction(stack, routeFunctionId(route.name), `functions/${route.handler}.ts`, props.environment, {
        description: routeKey,
        // A stream lasts as long as a Lambda may run; its client resumes after (Last-Event-ID).
        ...(route.streaming ? { timeout: STREAM_CONNECTION } : {}),
        role: dedicated.has(route.name) ? this.roles.dedicated(route.name, access) : this.roles.forClass(access),
        logGroup: this.functionLogs,
        reservedConcurrentExecutions: props.reservedConcurrency?.[route.name],
      });

      // A streaming route is a method of the stack's streaming REST API; the HTTP API's route
      // answers 307 to it (the HTTP API cannot stream).
      let target: LambdaFunction = fn;
      if (route.streaming) target = streamingApiOf(stack).addRoute(route, fn);
      new HttpRoute(stack, `Route-${route.name}`, {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, ApiMethod[route.method]),
        integration: stack.invoker.integrationFor(`Integration-${route.name}`, target),
      });
      functions.set(route.name, fn);
    }
    this.routeFunctions = functions;
    this.routeStacks = [...stacks.values()];
    this.streamingApis = [...streamingApis.values()];

    // Matches only what no route above matched; it needs the route table, not the data.
    const notFound = apiFunction(
      this,
      NOT_FOUND_FUNCTION_ID,
      'functions/system/route-not-found.ts',
      props.environment,
      {
        description: '$default: 404 route_not_found / 405 method_not_allowed',
        role: this.roles.forClass('none'),
        logGroup: this.functionLogs,
      },
    );
    new HttpRoute(this, 'Route-default', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: this.invoker.integrationFor('Integration-default', notFound),
    });

    // The MCP endpoint: one function for every tool (each call runs its route's handler inside
    // it), so it has what the tool routes have: the table, read and write. No tool enqueues
    // (the webhook routes are session-only), so no queue. ANY: it answers 405 to other methods
    // itself, in the service's envelope with Allow: POST. Its bundle is split so that a cold start
    // loads the MCP core and a call only its tool's route (infra/bundling.ts, MCP_BUNDLING).
    this.mcpFunction = splitApiFunction(this, MCP_FUNCTION_ID, 'functions/mcp/handler.ts', props.environment, {
      description: `${MCP_PATH}: the MCP endpoint (tools generated from the route table)`,
      role: this.roles.forClass('readWrite'),
      logGroup: this.functionLogs,
    });
    new HttpRoute(this, 'Route-mcp', {
      httpApi: this.api,
      routeKey: HttpRouteKey.with(MCP_PATH, ApiMethod.ANY),
      integration: this.invoker.integrationFor('Integration-mcp', this.mcpFunction),
    });
  }
}
