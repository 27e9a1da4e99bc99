import { Duration } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AwsIntegration,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseTransferMode,
  RestApi,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { NamedRoute } from '../shared/http/contract/route.js';
import type { Throttle } from './throttle.js';
import type { ApiInvokeRole } from './api-invoke-role.js';
import { apiFunction } from './lambda-defaults.js';

/** A Lambda invocation lasts at most 15 minutes: so does one stream connection. */
export const STREAM_CONNECTION = Duration.minutes(15);

/** The streaming API's stage: its URL is `https://<id>.execute-api.<region>.amazonaws.com/<stage>/`. */
export const STREAMING_STAGE = 'live';

export interface StreamingApiProps {
  throttle: Throttle;
  /** Variables every HTTP function gets; a redirect adds the streaming API's URL. */
  environment: Record<string, string>;
  /** The redirects' execution role (they check credentials and write a stream ticket) and log group, the HTTP functions'. */
  redirectRole: IRole;
  logGroup: ILogGroup;
  /** What API Gateway invokes the route stack's functions through: the streaming functions too. */
  invoker: ApiInvokeRole;
}

/**
 * The streaming routes (route.streaming: GET /v1/stream) of one route stack in AWS. API Gateway's
 * HTTP APIs cannot stream a response (they buffer it and end it at 30 s); REST APIs can (response
 * transfer mode STREAM, since November 2025): a Lambda proxy integration invoking the function's
 * `response-streaming-invocations`, up to 15 minutes. So each streaming route is a method of this
 * small REST API, throttled and access-logged as the HTTP API's stage; the HTTP API's route of the
 * same key answers `307` to it (the route's redirect, `functions/<handler>-redirect.ts` beside its
 * handler), so a client of the base URL gets there. Authentication is the function's own (the
 * route's credential, scope and acting-profile checks, or a stream ticket), as on every route.
 */
export class StreamingApi extends Construct {
  readonly api: RestApi;
  private readonly props: StreamingApiProps;

  constructor(scope: Construct, id: string, props: StreamingApiProps) {
    super(scope, id);
    this.props = props;
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.api = new RestApi(this, 'Api', {
      description: 'Social network service API (v1): the streaming routes (Server-Sent Events)',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Access logs of a REST API need API Gateway's account-level CloudWatch role.
      cloudWatchRole: true,
      deployOptions: {
        stageName: STREAMING_STAGE,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
        loggingLevel: MethodLoggingLevel.ERROR,
        // As the functions behind it: a request traced from the gateway on.
        tracingEnabled: true,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            resourcePath: '$context.resourcePath',
            httpMethod: '$context.httpMethod',
            status: '$context.status',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integration.error',
            error: '$context.error.message',
          }),
        ),
      },
    });
    // RestApi outputs its URL from its own (nested) stack; the parent outputs it instead.
    this.api.node.tryRemoveChild('Endpoint');
  }

  /**
   * The route as a method of this API, its path's resources made as needed, streaming `fn`'s
   * answer; answers the route's redirect (`functions/<handler>-redirect.ts`), which the HTTP API's
   * route of the same key invokes instead of `fn`.
   */
  addRoute(route: Pick<NamedRoute, 'name' | 'method' | 'path' | 'handler'>, fn: IFunction): NodejsFunction {
    const resource = route.path
      .split('/')
      .filter(Boolean)
      .reduce<IResource>((parent, part) => parent.getResource(part) ?? parent.addResource(part), this.api.root);
    // A Lambda proxy integration on the streaming invocation, as LambdaIntegration writes it, but
    // invoked through the stack's invoke role (as the HTTP API's integrations are) instead of a
    // resource-based permission on the function.
    // A browser's fetch with the credential's headers asks first (the stream answers any origin:
    // shared/live/stream.ts); EventSource with a ticket needs no preflight.
    resource.addCorsPreflight({
      allowOrigins: ['*'],
      allowMethods: [route.method],
      allowHeaders: ['authorization', 'x-profile-id', 'last-event-id'],
    });
    resource.addMethod(
      route.method,
      new AwsIntegration({
        proxy: true,
        service: 'lambda',
        path: `2021-11-15/functions/${fn.functionArn}/response-streaming-invocations`,
        integrationHttpMethod: 'POST',
        options: {
          credentialsRole: this.props.invoker.permit(fn),
          responseTransferMode: ResponseTransferMode.STREAM,
          timeout: STREAM_CONNECTION,
        },
      }),
    );
    return apiFunction(
      this,
      `Redirect-${route.name}`,
      `functions/${route.handler}-redirect.ts`,
      { ...this.props.environment, STREAMING_API_URL: this.api.url },
      {
        description: `${route.method} ${route.path} on the HTTP API: 307 to the streaming REST API`,
        role: this.props.redirectRole,
        logGroup: this.props.logGroup,
      },
    );
  }
}
