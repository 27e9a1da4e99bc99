import { Duration, Stack } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Domain } from 'aws-cdk-lib/aws-opensearchservice';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MEDIA_FILES_PREFIX, MEDIA_UPLOAD_PREFIX } from '../shared/domain/media.js';
import type { RouteName } from '../shared/http/contract/route-table.js';
import { topicAlarm } from './alarms.js';
import { failuresQueue } from './failures-queue.js';
import { apiFunction } from './lambda-defaults.js';

/** The routes that start or schedule an erasure (their grants stay on roles of their own). */
export const ERASURE_ROUTES: readonly RouteName[] = ['deleteMe', 'deleteProfile'];

/** One step: one page of one path (≤ 100 items) with what it reaches, and what it erases, well inside this. */
export const ERASURE_STEP_TIMEOUT = Duration.seconds(120);
/** SQS asks for ≥ 6× the function timeout so a batch retried by Lambda is not redelivered meanwhile. */
export const ERASURE_QUEUE_VISIBILITY = Duration.seconds(ERASURE_STEP_TIMEOUT.toSeconds() * 6);
export const ERASURE_MAX_RECEIVE_COUNT = 5;
/** One message a batch: each step is a chain's next link, and a failure replays that step alone. */
export const ERASURE_BATCH_SIZE = 1;
/**
 * The steps in flight at once: the chains of a few erasures at a time (a profile's erasure walks
 * about 30 paths side by side). Each reads by Query from a subject's key; more at once would take
 * write capacity from the API.
 */
export const ERASURE_MAX_CONCURRENCY = 8;

/**
 * What the erasure step does to the table: every read (a Query of a path or partition a subject's
 * key names, the items it derives; never a Scan) and every write of an item it erases or corrects.
 */
const TABLE_ACTIONS = [
  'dynamodb:Query',
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

export interface ErasureProps {
  table: ITable;
  environment: Record<string, string>;
  routeFunctions: ReadonlyMap<RouteName, NodejsFunction>;
  /** The processed media files (under media/) and the uploads (under incoming/). */
  mediaBucket: IBucket;
  uploadsBucket: IBucket;
  /** The export archives: the user's data too. */
  exportBucket: IBucket;
  searchDomain: Domain;
  alarmTopic: ITopic;
}

/**
 * Erasure (DESIGN.md "Erasure and export"): a queue of idempotent steps and its consumer, each
 * step erasing one page and enqueueing the next; a one-off EventBridge Scheduler schedule (a group
 * of its own) starts a job when its grace period ends. Failed steps go to a dead-letter queue,
 * which pages an operator: an erasure stuck there is a promise not kept.
 */
export class Erasure extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly fn: NodejsFunction;
  readonly scheduleGroup: CfnScheduleGroup;
  readonly schedulerRole: Role;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ErasureProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.deadLetterQueue = failuresQueue(this, 'StepsDlq');
    this.queue = new Queue(this, 'Steps', {
      visibilityTimeout: ERASURE_QUEUE_VISIBILITY,
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: ERASURE_MAX_RECEIVE_COUNT },
    });

    this.scheduleGroup = new CfnScheduleGroup(this, 'ScheduleGroup', {
      name: `${stack.stackName}-erasures`.slice(0, 64),
    });
    const groupName = this.scheduleGroup.name!;
    // The role EventBridge Scheduler assumes to put a job's start on the erasure queue; nothing else.
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: 'EventBridge Scheduler: start an erasure when its grace period ends',
    });
    this.queue.grantSendMessages(this.schedulerRole);

    const endpoint = `https://${props.searchDomain.domainEndpoint}`;
    this.fn = apiFunction(
      this,
      'Step',
      'functions/erasure/erase-step.ts',
      {
        ...props.environment,
        ERASURE_QUEUE_URL: this.queue.queueUrl,
        MEDIA_BUCKET: props.mediaBucket.bucketName,
        MEDIA_UPLOAD_BUCKET: props.uploadsBucket.bucketName,
        EXPORT_BUCKET: props.exportBucket.bucketName,
        SEARCH_ENDPOINT: endpoint,
      },
      { timeout: ERASURE_STEP_TIMEOUT, description: 'Erasure: one step (a page of the walk) per queue message' },
    );
    this.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: ERASURE_BATCH_SIZE,
        maxConcurrency: ERASURE_MAX_CONCURRENCY,
        reportBatchItemFailures: true,
      }),
    );
    this.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: TABLE_ACTIONS,
        resources: [props.table.tableArn, `${props.table.tableArn}/index/*`],
      }),
    );
    this.queue.grantSendMessages(this.fn);
    // A media's files (every rendition) and its upload: deletes under their prefixes only; an export's archive.
    this.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:DeleteObject'],
        resources: [
          props.mediaBucket.arnForObjects(`${MEDIA_FILES_PREFIX}*`),
          props.uploadsBucket.arnForObjects(`${MEDIA_UPLOAD_PREFIX}*`),
          props.exportBucket.arnForObjects('*'),
        ],
      }),
    );
    this.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:ListBucket'],
        resources: [props.mediaBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${MEDIA_FILES_PREFIX}*`] } },
      }),
    );
    props.searchDomain.grantIndexReadWrite('*', this.fn);

    // The routes: the queue for `now`, a schedule in the group (with its role passed) for the grace period.
    for (const name of ERASURE_ROUTES) {
      const route = props.routeFunctions.get(name);
      if (!route) continue;
      route.addEnvironment('ERASURE_QUEUE_URL', this.queue.queueUrl);
      route.addEnvironment('ERASURE_QUEUE_ARN', this.queue.queueArn);
      route.addEnvironment('SCHEDULER_GROUP_NAME', groupName);
      route.addEnvironment('SCHEDULER_ROLE_ARN', this.schedulerRole.roleArn);
      this.queue.grantSendMessages(route);
      route.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['scheduler:CreateSchedule'],
          resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${groupName}/*` })],
        }),
      );
      route.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['iam:PassRole'],
          resources: [this.schedulerRole.roleArn],
          conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        }),
      );
    }

    this.alarms.push(
      topicAlarm(
        this,
        props.alarmTopic,
        'StepsDlqAlarm',
        'Erasure steps failed 5 times and wait in the dead-letter queue: an erasure is not finishing (redrive once fixed)',
        this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
        1,
      ),
    );
  }
}
