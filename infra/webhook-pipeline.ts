import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SENDER_BATCH_SIZE, SENDER_MAX_CONCURRENCY } from './sender-event-source.js';
import { newImagesOf } from './stream-filters.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { consumeTableStream } from './stream-consumer.js';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { RouteName } from '../shared/http/contract/route-table.js';
import { entityTags } from '../shared/store/keys.js';
import { apiFunction } from './lambda-defaults.js';
import { failuresQueue } from './failures-queue.js';

export interface WebhookPipelineProps {
  /** The single table; its stream carries the outbox events. */
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
  /** HTTP route functions; the manual retry route puts deliveries on the queue. */
  routeFunctions?: ReadonlyMap<RouteName, NodejsFunction>;
}

/** The sender's HTTP attempt is 15 s (WEBHOOK_TIMEOUT_MS); the Lambda gets that plus room for DynamoDB. */
export const SENDER_TIMEOUT = Duration.seconds(30);
/** SQS asks for ≥ 6× the function timeout so a batch retried by Lambda is not redelivered meanwhile. */
export const QUEUE_VISIBILITY = Duration.seconds(SENDER_TIMEOUT.toSeconds() * 6);
/** One fan-out invocation per stream shard at a time, so a shard's events are handled in order. */
export const FAN_OUT_PARALLELIZATION = 1;
export const MAX_RECEIVE_COUNT = 5;
/**
 * The fan-out's event source runs with a tumbling window for one reason: only then does Lambda's
 * stream event name its shard (`shardId`), which the totals fold keys its exactly-once watermarks
 * by. Records are still handed over batch by batch as they arrive; the window's end adds one
 * invocation per shard per window, so it is long (the maximum, 15 minutes). No state is kept in it.
 */
export const FAN_OUT_WINDOW = Duration.minutes(15);
/** HTTP routes that put deliveries on the queue (the queue grant keeps them on roles of their own). */
export const ENQUEUING_ROUTES = ['retryWebhookDelivery', 'recoverWebhookDeliveries'] as const;

/**
 * The webhook delivery pipeline: table stream → fan-out → deliveries queue → sender, retries by
 * SQS DelaySeconds (≤ 15 min) or one-off EventBridge Scheduler schedules that target the queue,
 * and a sweeper every minute that re-enqueues lost deliveries and releases abandoned claims.
 */
/**
 * What the pipeline's functions do to the table: reads, key queries (base table and indexes) and
 * the Put/Update/ConditionCheck items of TransactWriteItems. No Scan, no Delete.
 */
const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
];

export class WebhookPipeline extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** Stream batches the fan-out gave up on (after its retries), for an operator to look at. */
  readonly fanOutFailures: Queue;
  readonly sender: NodejsFunction;
  readonly fanOut: NodejsFunction;
  readonly sweeper: NodejsFunction;
  readonly schedulerRole: Role;
  readonly scheduleGroup: CfnScheduleGroup;

  constructor(scope: Construct, id: string, props: WebhookPipelineProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.deadLetterQueue = failuresQueue(this, 'DeliveriesDlq');
    this.queue = new Queue(this, 'Deliveries', {
      visibilityTimeout: QUEUE_VISIBILITY,
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });

    this.scheduleGroup = new CfnScheduleGroup(this, 'RetryScheduleGroup', {
      name: `${stack.stackName}-webhook-retries`.slice(0, 64),
    });
    const groupName = this.scheduleGroup.name!;

    // The role EventBridge Scheduler assumes to put a due retry on the deliveries queue; nothing else.
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: 'EventBridge Scheduler: send webhook retries to the deliveries queue',
    });
    this.queue.grantSendMessages(this.schedulerRole);

    const grantTable = (fn: NodejsFunction) =>
      fn.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: TABLE_ACTIONS,
          resources: [props.table.tableArn, `${props.table.tableArn}/index/*`],
        }),
      );

    const environment = {
      ...props.environment,
      DELIVERIES_QUEUE_URL: this.queue.queueUrl,
      DELIVERIES_QUEUE_ARN: this.queue.queueArn,
      SCHEDULER_GROUP_NAME: groupName,
      SCHEDULER_ROLE_ARN: this.schedulerRole.roleArn,
    };

    // Sender: SQS → claim, sign, POST (15 s), record; schedules the next attempt.
    this.sender = apiFunction(this, 'Sender', 'functions/webhook-pipeline/send-delivery.ts', environment, {
      timeout: SENDER_TIMEOUT,
      description: 'Webhook sender: one signed HTTP attempt per queue message',
    });
    this.sender.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: SENDER_BATCH_SIZE,
        maxConcurrency: SENDER_MAX_CONCURRENCY,
        reportBatchItemFailures: true,
      }),
    );
    grantTable(this.sender);
    this.queue.grantSendMessages(this.sender);
    this.sender.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['scheduler:CreateSchedule'],
        resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${groupName}/*` })],
      }),
    );
    this.sender.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['iam:PassRole'],
        resources: [this.schedulerRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );

    // Fan-out: the table stream, filtered to INSERTs of outbox items (→ delivery records + queue) and
    // to writes of deliveries (→ the workspace totals). The table stream keeps two consumers.
    const fanOutFailures = failuresQueue(this, 'FanOutFailures');
    this.fanOutFailures = fanOutFailures;
    this.fanOut = apiFunction(this, 'FanOut', 'functions/webhook-pipeline/fan-out.ts', environment, {
      timeout: Duration.seconds(60),
      description:
        'Webhook fan-out: outbox events from the table stream to delivery records; delivery changes to the totals',
    });
    consumeTableStream(this.fanOut, props.table, {
      ...eventSourceBatching('webhook-fan-out'),
      // The handler splits a batch by workspace and reports only a failing workspace's record.
      reportBatchItemFailures: true,
      parallelizationFactor: FAN_OUT_PARALLELIZATION,
      retryAttempts: 20,
      failures: fanOutFailures,
      tumblingWindow: FAN_OUT_WINDOW,
      filters: [newImagesOf(entityTags.event, 'INSERT'), newImagesOf(entityTags.webhookDelivery, 'INSERT', 'MODIFY')],
    });
    grantTable(this.fanOut);
    this.queue.grantSendMessages(this.fanOut);

    // Sweeper: every minute, re-enqueue overdue deliveries and release abandoned claims. No reserved
    // concurrency: the rule starts one run a minute, and two overlapping runs are harmless (a
    // delivery enqueued twice is claimed once).
    this.sweeper = apiFunction(this, 'Sweeper', 'functions/webhook-pipeline/sweep-deliveries.ts', environment, {
      timeout: Duration.seconds(60),
      description: 'Webhook sweeper: re-enqueues lost deliveries, releases stale claims',
    });
    grantTable(this.sweeper);
    this.queue.grantSendMessages(this.sweeper);
    new Rule(this, 'SweepEveryMinute', {
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.sweeper, { retryAttempts: 0 })],
    });

    // The manual retry and the recovery routes put deliveries back on the queue at once.
    for (const name of ENQUEUING_ROUTES) {
      const route = props.routeFunctions?.get(name);
      if (!route) continue;
      for (const [key, value] of Object.entries(environment))
        if (!(key in props.environment)) route.addEnvironment(key, value);
      this.queue.grantSendMessages(route);
    }
  }
}
