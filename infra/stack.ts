import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { AgentCardSigning, CARD_SIGNING_ROUTES } from './agent-cards.js';
import { ServiceAlarms } from './alarms.js';
import { AuditLog } from './audit-log.js';
import { AuthorCards } from './author-cards.js';
import { LiveEvents } from './live-events.js';
import { ConsoleSite } from './console.js';
import { CounterFold } from './counters.js';
import { Notifications } from './notifications.js';
import { Live } from './live.js';
import { createDataTable } from './data-table.js';
import { FEED_CLEANING_ROUTES, HomeFeed } from './home-feed.js';
import { Erasure, ERASURE_ROUTES } from './erasure.js';
import { DataExports, EXPORT_QUEUEING_ROUTES, EXPORT_SIGNING_ROUTES } from './exports.js';
import { ServiceHttpApi } from './http-api.js';
import type { Throttle } from './throttle.js';
import { MediaPipeline, UPLOAD_SIGNING_ROUTES } from './media-pipeline.js';
import { configurePasskeys, type PasskeySettings } from './passkeys.js';
import { ENQUEUING_ROUTES, WebhookPipeline } from './webhook-pipeline.js';
import { SEARCH_ROUTES, SearchIndexing } from './search.js';
import { Mail } from './mail.js';

export interface SocialNetworkStackProps extends StackProps {
  /** DynamoDB deletion protection on the table. */
  deletionProtection: boolean;
  /** API Gateway stage throttling (whole stage, all routes together). */
  throttle: Throttle;
  /** Reserved concurrency of the log-in function; 0: none. */
  loginReservedConcurrency: number;
  /** Subscribed to the alarm topic when set. */
  alarmEmail?: string;
  /** The sender address of the service's mail (an SES identity of the stack). */
  mailFrom: string;
  /** When set, the SES identity is this whole domain (DKIM) instead of the sender address alone. */
  mailIdentityDomain?: string | undefined;
  /** The passkeys' relying party ID and origins; the API's own host when unset. */
  passkeys?: PasskeySettings;
}

/**
 * The whole service in AWS: the table, the HTTP API, the webhook pipeline, the home feed, the
 * counter fold, the media pipeline and the alarms. The route table's routes live in nested stacks,
 * one per resource (infra/route-stacks.ts): they are what grows with the API, three resources a
 * route. Everything else is fixed in size and stays here, where the table, the queues, the
 * buckets and the schedule group keep their logical ids (moving one into a nested stack would
 * replace it, and with it the messages, schedules or files it holds). Every template is held to
 * TEMPLATE_RESOURCE_GOAL (infra/template-budget.ts).
 */
export class SocialNetworkStack extends Stack {
  readonly table: Table;
  readonly httpApi: ServiceHttpApi;
  readonly webhooks: WebhookPipeline;
  readonly authorCards: AuthorCards;
  readonly auditLog: AuditLog;
  readonly liveEvents: LiveEvents;
  readonly feed: HomeFeed;
  readonly media: MediaPipeline;
  readonly counters: CounterFold;
  readonly notifications: Notifications;
  readonly live: Live;
  readonly alarms: ServiceAlarms;
  readonly console: ConsoleSite;
  readonly search: SearchIndexing;
  readonly mail: Mail;
  readonly agentCards: AgentCardSigning;
  readonly erasure: Erasure;
  readonly exports: DataExports;

  constructor(scope: Construct, id: string, props: SocialNetworkStackProps) {
    super(scope, id, props);

    this.table = createDataTable(this, 'Table', { deletionProtection: props.deletionProtection });

    // Every function of the stack gets these; more (queue URL, scheduler group) are added with
    // fn.addEnvironment by the construct that owns the resource.
    const environment = { TABLE_NAME: this.table.tableName };

    this.httpApi = new ServiceHttpApi(this, 'Http', {
      table: this.table,
      environment,
      throttle: props.throttle,
      // The manual retry and the recovery put deliveries on the queue, the feed read deletes stale
      // inbox entries, the media upload signs forms for the uploads bucket, the agent card signs with
      // the KMS key: those grants stay on their own roles.
      dedicatedRoles: [
        ...ENQUEUING_ROUTES,
        ...FEED_CLEANING_ROUTES,
        ...UPLOAD_SIGNING_ROUTES,
        ...SEARCH_ROUTES,
        ...CARD_SIGNING_ROUTES,
        ...ERASURE_ROUTES,
        ...EXPORT_QUEUEING_ROUTES,
        ...EXPORT_SIGNING_ROUTES,
      ],
      // Log-in keeps working while other routes take the account's concurrency.
      reservedConcurrency: props.loginReservedConcurrency > 0 ? { createSession: props.loginReservedConcurrency } : {},
    });

    // Passkeys are bound to the host the console is served from.
    configurePasskeys(this.httpApi.routeFunctions, this.httpApi.api.apiEndpoint, props.passkeys ?? {});

    // The webhook pipeline builds its Lambdas with apiFunction() (same runtime, bundling and
    // logging as the API) and grants the route functions that enqueue deliveries what they need.
    this.webhooks = new WebhookPipeline(this, 'Webhooks', {
      table: this.table,
      environment,
      routeFunctions: this.httpApi.routeFunctions,
    });

    // Posts carry their author's card; profile changes reach it through the stream.
    this.authorCards = new AuthorCards(this, 'AuthorCards', { table: this.table, environment });

    // The workspace audit log: written from the audit stamps the writes leave on their items.
    this.auditLog = new AuditLog(this, 'AuditLog', { table: this.table, environment });

    // The home feed: posts fanned out from the stream through its queue into followers' inboxes.
    this.feed = new HomeFeed(this, 'Feed', {
      table: this.table,
      environment,
      routeFunctions: this.httpApi.routeFunctions,
    });

    // Uploads, processing, the files behind CloudFront and their clean-up.
    this.media = new MediaPipeline(this, 'Media', {
      table: this.table,
      environment,
      uploadSigners: UPLOAD_SIGNING_ROUTES.flatMap((name) => this.httpApi.routeFunctions.get(name) ?? []),
    });

    // Likes, comment reactions and follows are items of their own; their counts are folded from the stream.
    this.counters = new CounterFold(this, 'Counters', { table: this.table, environment });

    // Notifications: what happened to each profile, written from the stream (likes and follows grouped per batch).
    this.notifications = new Notifications(this, 'Notifications', { table: this.table, environment });

    // Live: each profile's event log, appended from the stream; read by the poll and the stream routes.
    this.live = new Live(this, 'Live', { table: this.table, environment });

    this.alarms = new ServiceAlarms(this, 'Alarms', {
      api: this.httpApi.api,
      deadLetterQueue: this.webhooks.deadLetterQueue,
      fanOutFailures: this.webhooks.fanOutFailures,
      authorCardFailures: this.authorCards.failures,
      auditLogFailures: this.auditLog.failures,
      mediaProcessingFailures: this.media.processingFailures,
      mediaCleanUpFailures: this.media.cleanUpFailures,
      sender: this.webhooks.sender,
      fanOut: this.webhooks.fanOut,
      feed: {
        deadLetterQueue: this.feed.deadLetterQueue,
        streamFailures: this.feed.streamFailures,
        queue: this.feed.queue,
        fanOut: this.feed.fanOut,
      },
      counterFoldFailures: this.counters.failures,
      counterFold: this.counters.fn,
      email: props.alarmEmail,
    });

    // Search: the OpenSearch domain, its indexer on the stream, the search routes' endpoint and grants, its alarms.
    this.search = new SearchIndexing(this, 'Search', {
      table: this.table,
      environment,
      routeFunctions: this.httpApi.routeFunctions,
      alarmTopic: this.alarms.topic,
    });

    // Mail: the SES identity, bounces and complaints, and the consumer that sends the mail items the routes record.
    this.mail = new Mail(this, 'Mail', {
      table: this.table,
      environment,
      from: props.mailFrom,
      identityDomain: props.mailIdentityDomain,
      alarmTopic: this.alarms.topic,
    });

    // Agent cards: the KMS signing key, granted to the card and JWKS functions only.
    this.agentCards = new AgentCardSigning(this, 'AgentCards', {
      table: this.table,
      routeFunctions: this.httpApi.routeFunctions,
    });

    // Data exports: the archive bucket, the job queue and its Lambda, the export routes' grants.
    this.exports = new DataExports(this, 'Exports', {
      table: this.table,
      environment,
      routeFunctions: this.httpApi.routeFunctions,
      accessLogs: this.media.buckets.accessLogs,
      alarmTopic: this.alarms.topic,
    });

    // Erasure: the queue of steps and its consumer, the grace period's schedules, the deletion routes' grants.
    this.erasure = new Erasure(this, 'Erasure', {
      table: this.table,
      environment,
      routeFunctions: this.httpApi.routeFunctions,
      mediaBucket: this.media.buckets.media,
      uploadsBucket: this.media.buckets.uploads,
      exportBucket: this.exports.bucket,
      searchDomain: this.search.domain,
      alarmTopic: this.alarms.topic,
    });

    // Live events for WebSocket clients: AppSync Events, its authoriser, and the publisher on the stream.
    this.liveEvents = new LiveEvents(this, 'LiveEvents', {
      table: this.table,
      environment,
      alarmTopic: this.alarms.topic,
    });

    // The web console (/console) and the API reference (/docs), on the same gateway.
    this.console = new ConsoleSite(this, 'Console', {
      httpApi: this.httpApi.api,
      invoker: this.httpApi.invoker,
      environment,
      role: this.httpApi.roles.forClass('none'),
      logGroup: this.httpApi.functionLogs,
    });

    new CfnOutput(this, 'ApiUrl', {
      value: this.httpApi.stage.url,
      description: 'Base URL of the API (paths start with /v1)',
    });
    new CfnOutput(this, 'ConsoleUrl', {
      value: `${this.httpApi.stage.url}console`,
      description: 'The web console (the API reference is at /docs)',
    });
    // The streaming routes' REST API (GET /v1/stream): the one value a route stack hands up.
    for (const [index, streaming] of this.httpApi.streamingApis.entries())
      new CfnOutput(this, index === 0 ? 'StreamingApiUrl' : `StreamingApiUrl${index + 1}`, {
        value: streaming.api.url,
        description: 'Base URL of the streaming routes (GET /v1/stream, Server-Sent Events; docs/live.md)',
      });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
    new CfnOutput(this, 'MediaUploadBucketName', {
      value: this.media.buckets.uploads.bucketName,
      description: 'Uploads of POST /v1/media forms (incoming/, deleted after processing or within a day)',
    });
    new CfnOutput(this, 'MediaBucketName', {
      value: this.media.buckets.media.bucketName,
      description: 'Processed media files (private; served only by the media distribution)',
    });
    new CfnOutput(this, 'MediaBaseUrl', {
      value: this.media.buckets.baseUrl,
      description: 'Public base URL of every media file (CloudFront)',
    });
    new CfnOutput(this, 'LiveEventsRealtimeUrl', {
      value: `wss://${this.liveEvents.api.realtimeDns}/event/realtime`,
      description: 'WebSocket endpoint of the live events (AppSync Events; docs/live.md)',
    });
    new CfnOutput(this, 'LiveEventsHttpDomain', {
      value: this.liveEvents.api.httpDns,
      description: 'HTTP domain of the live events API (the host header of a WebSocket client)',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description: 'SNS topic of every alarm: subscribe to be told',
    });
    new CfnOutput(this, 'DeadLetterQueueArn', {
      value: this.webhooks.deadLetterQueue.queueArn,
      description: 'Webhook deliveries that failed repeatedly; redrive with aws sqs start-message-move-task',
    });
  }
}
