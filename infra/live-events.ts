import { Duration, Stack } from 'aws-cdk-lib';
import { AppSyncAuthorizationType, type ChannelNamespace, EventApi } from 'aws-cdk-lib/aws-appsync';
import type { Alarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PROFILE_CHANNEL_NAMESPACE } from '../shared/domain/live-channels.js';
import { keys } from '../shared/store/keys.js';
import { topicAlarm } from './alarms.js';
import { apiFunction } from './lambda-defaults.js';
import { consumeTableStream } from './stream-consumer.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { partitionKeysOf } from './stream-filters.js';

export interface LiveEventsProps {
  /** The single table; its stream carries the event log's inserts. */
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
  alarmTopic: ITopic;
}

/** WebSocket subscribers wait for their events: an alarm when the publisher is a minute behind. */
export const LIVE_PUBLISH_LAG_ALARM_MS = 60 * 1000;

/**
 * The live events for WebSocket clients (API.md "Live", DESIGN.md "The event log and live
 * transports"): an AppSync Events API whose one namespace, `profiles`, holds a channel per profile.
 * Clients connect and subscribe through the Lambda authoriser (this API's credentials, one's own
 * profiles only); only the publisher publishes, with IAM (appsync:EventPublish on this namespace
 * and nothing else). The publisher is a consumer of the table stream filtered by key to INSERTs
 * of event log items (`EVENTS#…`), with a failure queue and alarms like the other consumers; it
 * reads the posts of `feed.post` events, logged by reference, to present them.
 */
export class LiveEvents extends Construct {
  readonly api: EventApi;
  readonly namespace: ChannelNamespace;
  readonly authorizer: NodejsFunction;
  readonly publisher: NodejsFunction;
  /** Stream records the publisher gave up on (after retries): their WebSocket subscribers missed them (the log has them). */
  readonly failures: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: LiveEventsProps) {
    super(scope, id);
    this.authorizer = apiFunction(this, 'Authorize', 'functions/live-subscriptions/authorize.ts', props.environment, {
      timeout: Duration.seconds(10),
      description: 'Live events: AppSync Events authoriser (this API credentials, own profiles only)',
    });
    // The credential, the profile and a membership are read by key (no index); nothing is written.
    this.authorizer.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'],
        resources: [props.table.tableArn],
      }),
    );

    this.api = new EventApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-live-events`,
      authorizationConfig: {
        authProviders: [
          { authorizationType: AppSyncAuthorizationType.IAM },
          {
            authorizationType: AppSyncAuthorizationType.LAMBDA,
            // No cache: a cached yes would answer the same token on another profile's channel.
            lambdaAuthorizerConfig: { handler: this.authorizer, resultsCacheTtl: Duration.seconds(0) },
          },
        ],
        connectionAuthModeTypes: [AppSyncAuthorizationType.LAMBDA],
        defaultPublishAuthModeTypes: [AppSyncAuthorizationType.IAM],
        defaultSubscribeAuthModeTypes: [AppSyncAuthorizationType.LAMBDA],
      },
    });
    this.namespace = this.api.addChannelNamespace('Profiles', {
      channelNamespaceName: PROFILE_CHANNEL_NAMESPACE,
      authorizationConfig: {
        publishAuthModeTypes: [AppSyncAuthorizationType.IAM],
        subscribeAuthModeTypes: [AppSyncAuthorizationType.LAMBDA],
      },
    });

    this.failures = new Queue(this, 'Failures', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.publisher = apiFunction(
      this,
      'Publish',
      'functions/live-publisher/publish-events.ts',
      { ...props.environment, APPSYNC_EVENTS_ENDPOINT: `https://${this.api.httpDns}` },
      {
        timeout: Duration.seconds(60),
        description: 'Live events: event log inserts from the table stream published to AppSync Events',
      },
    );
    consumeTableStream(this.publisher, props.table, {
      ...eventSourceBatching('live-publisher'),
      reportBatchItemFailures: true,
      failures: this.failures,
      filters: [partitionKeysOf(keys.eventLog(''), 'INSERT')],
    });
    this.namespace.grantPublish(this.publisher);
    // A feed.post is logged by reference: the publisher reads its post (BatchGetItem) and the
    // profile's blocks and mutes (a Query of its safety partition, no index); it writes nothing.
    this.publisher.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:BatchGetItem', 'dynamodb:Query'],
        resources: [props.table.tableArn],
      }),
    );

    const alarm = (name: string, description: string, metric: IMetric, threshold: number) =>
      this.alarms.push(topicAlarm(this, props.alarmTopic, name, description, metric, threshold));
    alarm(
      'PublishFailuresWaiting',
      'Event log records the live publisher gave up on are in its failure queue: WebSocket subscribers missed those events (the log and SSE have them).',
      this.failures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      1,
    );
    alarm(
      'PublisherIteratorAge',
      'The live publisher is behind on the table stream: WebSocket subscribers get their events more than a minute late.',
      this.publisher.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
      LIVE_PUBLISH_LAG_ALARM_MS,
    );
  }
}
