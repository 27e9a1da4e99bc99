import { ERASURE_ROUTES } from './erasure.js';
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { MEDIA_FILES_PREFIX, MEDIA_UPLOAD_PREFIX } from '../shared/domain/media.js';
import { SEARCH_ROUTES } from './search.js';
import type { SocialNetworkStack } from './stack.js';

/**
 * A resource as cdk-nag names it in a finding id: joins flattened, references as `<id>` and
 * `<id.attribute>`, any other intrinsic as its JSON.
 */
function nagName(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if (Array.isArray(node['Fn::Join'])) {
      const [delimiter, parts] = node['Fn::Join'] as [string, unknown[]];
      return parts.map(nagName).join(delimiter);
    }
    if (Array.isArray(node['Fn::GetAtt'])) return `<${(node['Fn::GetAtt'] as string[]).join('.')}>`;
    if (typeof node.Ref === 'string') return `<${node.Ref}>`;
  }
  return JSON.stringify(value);
}

/**
 * Every cdk-nag finding (AwsSolutions and Serverless packs) that is a design decision, with the
 * reason, on the narrowest construct it applies to: a new resource with the same finding elsewhere
 * still fails the synthesis. Ids are `<pack>::<rule>[<finding>]` as cdk-nag prints them.
 */
export function acknowledgeFindings(stack: SocialNetworkStack): void {
  const ack = (scope: IConstruct, rule: string, reason: string) =>
    Validations.of(scope).acknowledge({ id: rule, reason });
  const { httpApi, webhooks, feed } = stack;
  const tableArn = `<${stack.getLogicalId(stack.table.node.defaultChild as never)}.Arn>`;
  const pipelineFunctions = [
    webhooks.sender,
    webhooks.fanOut,
    webhooks.sweeper,
    stack.authorCards.fn,
    feed.fanOut,
    feed.writer,
    stack.counters.fn,
  ];

  ack(
    httpApi,
    'AwsSolutions::AwsSolutions-APIG4',
    'Authorisation is in each function (shared middy middleware: session tokens, API keys with scopes, acting profile), as the route table declares per route; public routes (sign-up, log-in, public reads) need none. An API Gateway authorizer would add a Lambda invocation to every request.',
  );
  ack(
    httpApi,
    'Serverless::Serverless-LambdaDLQ',
    'HTTP functions are invoked synchronously by API Gateway: the client gets the error, and an asynchronous-invocation DLQ would never receive anything.',
  );

  // The streaming routes' REST API (infra/streaming-route.ts): the HTTP API's routes, served where a response can stream.
  for (const streaming of httpApi.streamingApis) {
    ack(
      streaming,
      'AwsSolutions::AwsSolutions-APIG2',
      "The function validates the request with the route's own schemas (the route table) and answers 400 in the service's error envelope, as on the HTTP API; a REST API request validator would answer in another shape first.",
    );
    ack(
      streaming,
      'AwsSolutions::AwsSolutions-COG4',
      'Authentication is in the function (session tokens, API keys with scopes, OAuth access tokens, single-use stream tickets), as on every route of the HTTP API; the service has no Cognito user pool.',
    );
    ack(
      streaming,
      'AwsSolutions::AwsSolutions-APIG3',
      "Protected as the HTTP API is (which cannot carry a web ACL): the stage's throttling and the service's per-credential rate limits in the function. A WAF web ACL, charged per request, is the operator's choice for the whole service, not this one route's.",
    );
    ack(
      streaming.api,
      'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      "API Gateway's account-level role for REST API logs (the stage's access log needs it): the managed policy is the one API Gateway documents for that role, and it names only CloudWatch Logs actions.",
    );
  }

  ack(
    stack.console,
    'AwsSolutions::AwsSolutions-APIG4',
    "The console and API reference routes serve public static files; the console authenticates every API call it makes with the user's session token.",
  );
  ack(
    stack.console,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by API Gateway to serve files: there is no asynchronous invocation to keep.',
  );

  // Wildcards that are the narrowest form IAM offers here.
  const indexReason =
    "Queries on the table's global secondary indexes need the index ARNs; `<table>/index/*` covers only this table's indexes.";
  const xrayReason =
    'X-Ray PutTraceSegments / PutTelemetryRecords (active tracing) do not support resource-level permissions.';
  for (const scope of [httpApi.roles, ...pipelineFunctions]) {
    ack(scope, `AwsSolutions::AwsSolutions-IAM5[Resource::${tableArn}/index/*]`, indexReason);
    ack(scope, 'AwsSolutions::AwsSolutions-IAM5[Resource::*]', xrayReason);
  }
  ack(
    webhooks.sender,
    `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${webhooks.scheduleGroup.name}/*]`,
    "One one-off schedule per delayed retry, named after the delivery: the sender may create schedules only in the service's own schedule group.",
  );
  for (const fn of pipelineFunctions) {
    ack(
      fn,
      'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'The managed basic execution policy only lets the function write its own logs (CreateLogGroup/CreateLogStream/PutLogEvents).',
    );
  }

  // Failure handling of the webhook pipeline, where the rules expect another mechanism.
  ack(
    webhooks.deadLetterQueue,
    'Serverless::Serverless-SQSRedrivePolicy',
    'This is the dead-letter queue of the deliveries queue; it has no further one.',
  );
  ack(
    stack.authorCards.failures,
    'Serverless::Serverless-SQSRedrivePolicy',
    "This is the on-failure destination of the author-card refresh's stream mapping; it has no further one.",
  );
  ack(
    stack.authorCards.failures,
    'AwsSolutions::AwsSolutions-SQS3',
    "This queue is itself a failure destination (of the author-card refresh's stream mapping), which the rule does not recognise as a DLQ.",
  );
  ack(
    stack.authorCards.fn,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the author-card failure queue.',
  );
  ack(
    stack.counters.failures,
    'Serverless::Serverless-SQSRedrivePolicy',
    "This is the on-failure destination of the counter fold's stream mapping; it has no further one.",
  );
  ack(
    stack.counters.failures,
    'AwsSolutions::AwsSolutions-SQS3',
    "This queue is itself a failure destination (of the counter fold's stream mapping), which the rule does not recognise as a DLQ.",
  );
  ack(
    stack.counters.fn,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the counter fold failure queue (alarmed).',
  );
  ack(
    webhooks.fanOutFailures,
    'Serverless::Serverless-SQSRedrivePolicy',
    "This is the on-failure destination of the fan-out's stream mapping; it has no further one.",
  );
  ack(
    webhooks.fanOutFailures,
    'AwsSolutions::AwsSolutions-SQS3',
    "This queue is itself a failure destination (of the fan-out's stream mapping), which the rule does not recognise as a DLQ.",
  );
  ack(
    webhooks.sender,
    'Serverless::Serverless-LambdaEventSourceMappingDestination',
    "SQS event source mappings have no on-failure destination: the deliveries queue's redrive policy moves a message to the dead-letter queue after repeated failures (alarmed).",
  );
  ack(
    webhooks.sender,
    'Serverless::Serverless-LambdaDLQ',
    "Invoked synchronously by its SQS event source; failed messages go to the queue's dead-letter queue.",
  );
  ack(
    webhooks.fanOut,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the fan-out failure queue (alarmed).',
  );
  ack(
    feed.deadLetterQueue,
    'Serverless::Serverless-SQSRedrivePolicy',
    'This is the dead-letter queue of the feed queue; it has no further one.',
  );
  ack(
    feed.streamFailures,
    'Serverless::Serverless-SQSRedrivePolicy',
    "This is the on-failure destination of the feed fan-out's stream mapping; it has no further one.",
  );
  ack(
    feed.streamFailures,
    'AwsSolutions::AwsSolutions-SQS3',
    "This queue is itself a failure destination (of the feed fan-out's stream mapping), which the rule does not recognise as a DLQ.",
  );
  ack(
    feed.fanOut,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the feed fan-out failure queue (alarmed).',
  );
  ack(
    feed.writer,
    'Serverless::Serverless-LambdaEventSourceMappingDestination',
    "SQS event source mappings have no on-failure destination: the feed queue's redrive policy moves a message to its dead-letter queue after repeated failures (alarmed).",
  );
  ack(
    feed.writer,
    'Serverless::Serverless-LambdaDLQ',
    "Invoked synchronously by its SQS event source; failed messages go to the feed queue's dead-letter queue.",
  );
  acknowledgeMediaFindings(stack, ack);
  acknowledgeMailFindings(stack, ack);
  acknowledgeErasureFindings(stack, ack);
  acknowledgeExportFindings(stack, ack);
  acknowledgeLiveEventsFindings(stack, ack);
  acknowledgeAuditLogFindings(stack, ack);

  const sweepReason =
    'The sweeper runs every minute and only re-enqueues what is overdue: a run that fails or is lost is made good by the next one, so there is nothing to keep in a DLQ.';
  ack(webhooks.sweeper, 'Serverless::Serverless-LambdaDLQ', sweepReason);
  ack(webhooks, 'Serverless::Serverless-EventBusDLQ', sweepReason);

  // The notifications consumer: a stream consumer like the counter fold, with the same reasons.
  const notify = stack.notifications;
  ack(notify.fn, 'AwsSolutions::AwsSolutions-IAM5[Resource::*]', xrayReason);
  ack(
    notify.fn,
    'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The managed basic execution policy only lets the function write its own logs (CreateLogGroup/CreateLogStream/PutLogEvents).',
  );
  ack(
    notify.failures,
    'Serverless::Serverless-SQSRedrivePolicy',
    "This is the on-failure destination of the notifications' stream mapping; it has no further one.",
  );
  ack(
    notify.failures,
    'AwsSolutions::AwsSolutions-SQS3',
    "This queue is itself a failure destination (of the notifications' stream mapping), which the rule does not recognise as a DLQ.",
  );
  ack(
    notify.fn,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the notifications failure queue.',
  );

  // The event-log consumer (infra/live.ts): a stream consumer like the notifications', with the same reasons.
  const { live } = stack;
  ack(live.logEvents, 'AwsSolutions::AwsSolutions-IAM5[Resource::*]', xrayReason);
  ack(
    live.logEvents,
    'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The managed basic execution policy only lets the function write its own logs (CreateLogGroup/CreateLogStream/PutLogEvents).',
  );
  ack(
    live.failures,
    'Serverless::Serverless-SQSRedrivePolicy',
    "This is the on-failure destination of the event log's stream mapping; it has no further one.",
  );
  ack(
    live.failures,
    'AwsSolutions::AwsSolutions-SQS3',
    "This queue is itself a failure destination (of the event log's stream mapping), which the rule does not recognise as a DLQ.",
  );
  ack(
    live.logEvents,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the event log failure queue.',
  );

  // Search (infra/search.ts, docs/search.md): the OpenSearch domain and its indexer.
  const { search } = stack;
  const domainArn = `<${stack.getLogicalId(search.domain.node.defaultChild as never)}.Arn>`;
  const indexReadWrite =
    'IAM names an OpenSearch index by a path under the domain ARN: `<domain>/*` (index creation, _bulk) and `<domain>/*/*` (_search, _doc) cover this domain only, and the service creates its indexes by name at first use.';
  for (const scope of [search.fn, ...SEARCH_ROUTES.flatMap((name) => httpApi.routeFunctions.get(name)?.role ?? [])]) {
    ack(scope, `AwsSolutions::AwsSolutions-IAM5[Resource::${domainArn}/*]`, indexReadWrite);
    ack(scope, `AwsSolutions::AwsSolutions-IAM5[Resource::${domainArn}/*/*]`, indexReadWrite);
  }
  ack(search.fn, 'AwsSolutions::AwsSolutions-IAM5[Resource::*]', xrayReason);
  ack(
    search.fn,
    'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The managed basic execution policy only lets the function write its own logs (CreateLogGroup/CreateLogStream/PutLogEvents).',
  );
  ack(
    search.fn,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the search failure queue (alarmed).',
  );
  ack(
    search.failures,
    'Serverless::Serverless-SQSRedrivePolicy',
    "This is the on-failure destination of the search indexer's stream mapping; it has no further one.",
  );
  ack(
    search.failures,
    'AwsSolutions::AwsSolutions-SQS3',
    "This queue is itself a failure destination (of the search indexer's stream mapping), which the rule does not recognise as a DLQ.",
  );
  ack(
    search.domain,
    'AwsSolutions::AwsSolutions-OS1',
    'The service runs no VPC (every Lambda is VPC-less); the domain is reached over HTTPS only, TLS 1.2, every request SigV4-signed and allowed by IAM identity policies of the indexer and the two search routes.',
  );
  ack(
    search.domain,
    'AwsSolutions::AwsSolutions-OS3',
    'Callers are Lambda functions without fixed addresses: access is by IAM identity (SigV4), which an IP allowlist cannot express.',
  );
  ack(
    search.domain,
    'AwsSolutions::AwsSolutions-OS4',
    'One data node is the cost floor chosen in docs/search.md; dedicated master nodes would triple it. The index is derived from the table and rebuilt by npm run search:reindex.',
  );
  ack(
    search.domain,
    'AwsSolutions::AwsSolutions-OS5',
    'No resource policy allows anonymous access: with none, only IAM principals whose identity policies grant es:ESHttp* on this domain (the indexer and the search routes) reach it, every request SigV4-signed.',
  );
  ack(
    search.domain,
    'AwsSolutions::AwsSolutions-OS7',
    'One data node (docs/search.md, cost floor): no second zone to be aware of. Losing it loses a derived index, rebuilt from the table by npm run search:reindex.',
  );
  for (const logs of ['SEARCH_SLOW_LOGS', 'INDEX_SLOW_LOGS'])
    ack(
      search.domain,
      `AwsSolutions::AwsSolutions-OS9[LogExport::${logs}]`,
      'Slow logs go to CloudWatch through a log-group resource policy that CDK writes with a custom-resource Lambda; the domain metrics are alarmed instead (red status, blocked writes, free storage) and slow logs can be switched on when a query needs profiling.',
    );
}

/** The erasure's findings (infra/erasure.ts, docs/data-rights.md). */
function acknowledgeErasureFindings(
  stack: SocialNetworkStack,
  ack: (scope: IConstruct, rule: string, reason: string) => void,
): void {
  const { erasure, media, search, httpApi, exports } = stack;
  const iam5 = (resource: string) => `AwsSolutions::AwsSolutions-IAM5[Resource::${nagName(stack.resolve(resource))}]`;
  const tableArn = `<${stack.getLogicalId(stack.table.node.defaultChild as never)}.Arn>`;
  const domainArn = `<${stack.getLogicalId(search.domain.node.defaultChild as never)}.Arn>`;
  const { fn } = erasure;
  ack(
    fn,
    'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The managed basic execution policy only lets the function write its own logs (CreateLogGroup/CreateLogStream/PutLogEvents).',
  );
  ack(
    fn,
    'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
    'X-Ray PutTraceSegments / PutTelemetryRecords (active tracing) do not support resource-level permissions.',
  );
  ack(
    fn,
    `AwsSolutions::AwsSolutions-IAM5[Resource::${tableArn}/index/*]`,
    "Queries on the table's global secondary indexes need the index ARNs; `<table>/index/*` covers only this table's indexes.",
  );
  const perMediaKeys =
    "An erased profile's media have keys of their own (`incoming/<media id>`, `media/<media id>/<variant>.<ext>`): the prefix is the narrowest resource a role can name.";
  ack(fn, iam5(media.buckets.media.arnForObjects(`${MEDIA_FILES_PREFIX}*`)), perMediaKeys);
  ack(fn, iam5(media.buckets.uploads.arnForObjects(`${MEDIA_UPLOAD_PREFIX}*`)), perMediaKeys);
  ack(
    fn,
    iam5(exports.bucket.arnForObjects('*')),
    "An erased user's export archives have keys of their own (one per export, named by its id): the bucket holds archives only, and the erasure may only delete them.",
  );
  const indexReadWrite =
    'IAM names an OpenSearch index by a path under the domain ARN: `<domain>/*` and `<domain>/*/*` cover this domain only; the erasure deletes documents by id.';
  ack(fn, `AwsSolutions::AwsSolutions-IAM5[Resource::${domainArn}/*]`, indexReadWrite);
  ack(fn, `AwsSolutions::AwsSolutions-IAM5[Resource::${domainArn}/*/*]`, indexReadWrite);
  ack(
    fn,
    'Serverless::Serverless-LambdaEventSourceMappingDestination',
    "SQS event source mappings have no on-failure destination: the steps queue's redrive policy moves a message to its dead-letter queue after repeated failures (alarmed).",
  );
  ack(
    fn,
    'Serverless::Serverless-LambdaDLQ',
    "Invoked synchronously by its SQS event source; failed steps go to the steps queue's dead-letter queue.",
  );
  ack(
    erasure.deadLetterQueue,
    'Serverless::Serverless-SQSRedrivePolicy',
    'This is the dead-letter queue of the erasure steps queue; it has no further one.',
  );
  const schedules = `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${erasure.scheduleGroup.name}/*]`;
  for (const name of ERASURE_ROUTES) {
    const role = httpApi.routeFunctions.get(name)?.role;
    if (role)
      ack(
        role,
        schedules,
        "One one-off schedule per account deletion, named after its job: the route may create schedules only in the erasure's own schedule group.",
      );
  }
}

/** The media pipeline's findings (infra/media-pipeline.ts, infra/media-buckets.ts). */
function acknowledgeMediaFindings(
  stack: SocialNetworkStack,
  ack: (scope: IConstruct, rule: string, reason: string) => void,
): void {
  const { media } = stack;
  const { buckets, processor, cleanUp } = media;
  const iam5 = (resource: string) => `AwsSolutions::AwsSolutions-IAM5[Resource::${nagName(stack.resolve(resource))}]`;
  const perMediaKeys =
    'Each media has keys of its own (`incoming/<media id>`, `media/<media id>/<variant>.<ext>`), known only when a client creates the media: the prefix is the narrowest resource a role can name.';

  ackFunctionBasics(ack, [processor, cleanUp]);
  for (const fn of [processor, cleanUp])
    ack(fn, iam5(buckets.media.arnForObjects(`${MEDIA_FILES_PREFIX}*`)), perMediaKeys);
  ack(processor, iam5(buckets.uploadsByName.arnForObjects(`${MEDIA_UPLOAD_PREFIX}*`)), perMediaKeys);
  for (const signer of media.uploadSigners) {
    if (signer.role) ack(signer.role, iam5(buckets.uploads.arnForObjects(`${MEDIA_UPLOAD_PREFIX}*`)), perMediaKeys);
  }

  ack(
    processor,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked asynchronously by S3; failed invocations go to an on-failure destination (the media processing failure queue, alarmed), whose records carry the error as well as the event that a DLQ would hold.',
  );
  ack(
    cleanUp,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the media clean-up failure queue (alarmed).',
  );
  ackFailureDestinations(ack, [
    [media.processingFailures, "the media processor's asynchronous invocations"],
    [media.cleanUpFailures, "the media clean-up's stream mapping"],
  ]);

  ack(
    buckets.distribution,
    'AwsSolutions::AwsSolutions-CFR1',
    'The distribution serves the public images of profiles and posts to everyone the API serves; the service has no country it must exclude.',
  );
  ack(
    buckets.distribution,
    'AwsSolutions::AwsSolutions-CFR2',
    'GET and HEAD of immutable image files from a private bucket, with no application behind them for a web ACL to protect; a WAF web ACL would add a monthly fee and a per-request charge. Uploads are limited where they are created (the API).',
  );
  ack(
    buckets.distribution,
    'AwsSolutions::AwsSolutions-CFR4',
    'No custom domain: the distribution uses the default *.cloudfront.net certificate, with which CloudFront does not enforce a minimum TLS version. A custom domain with its own ACM certificate (us-east-1) would allow TLSv1.2_2021. Viewers are held to HTTPS.',
  );
}

/** The mail construct (infra/mail.ts): a stream consumer and an SNS subscriber, with the same reasons as the others. */
function acknowledgeMailFindings(
  stack: SocialNetworkStack,
  ack: (scope: IConstruct, rule: string, reason: string) => void,
): void {
  const { mail } = stack;
  ackFunctionBasics(ack, [mail.sender, mail.suppressor]);
  ack(
    mail.sender,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the mail failure queue (alarmed).',
  );
  ack(
    mail.suppressor,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked asynchronously by SNS; failed invocations go to an on-failure destination (the suppression failure queue, alarmed), whose records carry the error as well as the event.',
  );
  ackFailureDestinations(ack, [
    [mail.failures, "the mail consumer's stream mapping"],
    [mail.suppressionFailures, "the mail suppressor's asynchronous invocations"],
  ]);
}

/** The data exports construct (infra/exports.ts): a queue consumer, and the routes that sign downloads. */
function acknowledgeExportFindings(
  stack: SocialNetworkStack,
  ack: (scope: IConstruct, rule: string, reason: string) => void,
): void {
  const { exports, httpApi } = stack;
  const tableArn = `<${stack.getLogicalId(stack.table.node.defaultChild as never)}.Arn>`;
  const bucketArn = `<${stack.getLogicalId(exports.bucket.node.defaultChild as never)}.Arn>`;
  ackFunctionBasics(ack, [exports.job]);
  ack(
    exports.job,
    `AwsSolutions::AwsSolutions-IAM5[Resource::${tableArn}/index/*]`,
    "The archive reads every list the API reads, on the table's global secondary indexes; `<table>/index/*` covers only this table's indexes.",
  );
  const objects =
    'Archive keys are `<export id>/<random>.zip`, made per export: the grant is on the objects of the export bucket only.';
  ack(exports.job, `AwsSolutions::AwsSolutions-IAM5[Resource::${bucketArn}/*]`, objects);
  ack(httpApi.roles, `AwsSolutions::AwsSolutions-IAM5[Resource::${bucketArn}/*]`, objects);
  ack(
    exports.job,
    'Serverless::Serverless-LambdaEventSourceMappingDestination',
    "SQS event source mappings have no on-failure destination: the job queue's redrive policy moves a message to its dead-letter queue after its tries (alarmed), and the job settles the export as failed first.",
  );
  ack(
    exports.job,
    'Serverless::Serverless-LambdaDLQ',
    "Invoked synchronously by its SQS event source; failed messages go to the job queue's dead-letter queue.",
  );
  ack(
    exports.deadLetterQueue,
    'Serverless::Serverless-SQSRedrivePolicy',
    'This is the dead-letter queue of the export job queue; it has no further one.',
  );
}

/** The live events (infra/live-events.ts): a stream consumer and AppSync's authoriser, with the same reasons as the others. */
function acknowledgeLiveEventsFindings(
  stack: SocialNetworkStack,
  ack: (scope: IConstruct, rule: string, reason: string) => void,
): void {
  const live = stack.liveEvents;
  ackFunctionBasics(ack, [live.publisher, live.authorizer]);
  ack(
    live.publisher,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the live publisher failure queue (alarmed).',
  );
  ack(
    live.authorizer,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by AppSync for each connection and subscription: the client is refused on an error, and there is no asynchronous invocation to keep.',
  );
  ackFailureDestinations(ack, [[live.failures, "the live publisher's stream mapping"]]);
}

/** What every function of its own role has: the managed basic execution policy, and X-Ray's wildcard. */
function ackFunctionBasics(
  ack: (scope: IConstruct, rule: string, reason: string) => void,
  functions: readonly IConstruct[],
): void {
  for (const fn of functions) {
    ack(
      fn,
      'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'The managed basic execution policy only lets the function write its own logs (CreateLogGroup/CreateLogStream/PutLogEvents).',
    );
    ack(
      fn,
      'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      'X-Ray PutTraceSegments / PutTelemetryRecords (active tracing) do not support resource-level permissions.',
    );
  }
}

/** Queues that are a failure destination themselves (of `whose`): the rules see no DLQ of their own. */
function ackFailureDestinations(
  ack: (scope: IConstruct, rule: string, reason: string) => void,
  queues: readonly (readonly [IConstruct, string])[],
): void {
  for (const [queue, whose] of queues) {
    ack(
      queue,
      'Serverless::Serverless-SQSRedrivePolicy',
      `This is the on-failure destination of ${whose}; it has no further one.`,
    );
    ack(
      queue,
      'AwsSolutions::AwsSolutions-SQS3',
      `This queue is itself a failure destination (of ${whose}), which the rule does not recognise as a DLQ.`,
    );
  }
}

/** The audit log's recorder (infra/audit-log.ts): a stream consumer, with the same reasons as the others. */
function acknowledgeAuditLogFindings(
  stack: SocialNetworkStack,
  ack: (scope: IConstruct, rule: string, reason: string) => void,
): void {
  const { auditLog } = stack;
  const tableArn = `<${stack.getLogicalId(stack.table.node.defaultChild as never)}.Arn>`;
  ackFunctionBasics(ack, [auditLog.fn]);
  ack(
    auditLog.fn,
    `AwsSolutions::AwsSolutions-IAM5[Resource::${tableArn}/index/*]`,
    "The table grant names the table's indexes beside it; the recorder may only PutItem, which no index accepts.",
  );
  ack(
    auditLog.fn,
    'Serverless::Serverless-LambdaDLQ',
    'Invoked synchronously by its stream event source, whose on-failure destination is the audit log failure queue (alarmed).',
  );
  ackFailureDestinations(ack, [[auditLog.failures, "the audit recorder's stream mapping"]]);
}
