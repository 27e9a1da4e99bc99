import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { consumeTableStream } from './stream-consumer.js';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { RouteName } from '../shared/http/contract/route-table.js';
import { entityTags, keys } from '../shared/store/keys.js';
import { FEED_WRITER_BATCH_SIZE, FEED_WRITER_MAX_CONCURRENCY } from './feed-event-sources.js';
import { apiFunction } from './lambda-defaults.js';
import { newImagesOf, newImagesWhere } from './stream-filters.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { failuresQueue } from './failures-queue.js';

export interface HomeFeedProps {
  /** The single table; its stream carries posts and follows. */
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
  /** HTTP route functions; the feed read deletes stale inbox entries behind itself. */
  routeFunctions?: ReadonlyMap<RouteName, NodejsFunction>;
}

/** A writer invocation: up to 1,000 entries in BatchWriteItems of 25, retries of unprocessed items included. */
export const FEED_WRITER_TIMEOUT = Duration.seconds(60);
/** SQS asks for ≥ 6× the function timeout so a batch retried by Lambda is not redelivered meanwhile. */
export const FEED_QUEUE_VISIBILITY = Duration.seconds(FEED_WRITER_TIMEOUT.toSeconds() * 6);
export const FEED_MAX_RECEIVE_COUNT = 5;
/**
 * Two fan-out invocations per stream shard: posts and follows do not depend on each other's order
 * (each record is idempotent), so a shard's burst of publications is taken twice as fast.
 */
export const FEED_FAN_OUT_PARALLELIZATION = 2;
/** HTTP routes that delete stale inbox entries behind a read (their write grant stays on roles of their own). */
export const FEED_CLEANING_ROUTES = ['getFeed'] as const;

/** The partition keys of the feed's items, for IAM's dynamodb:LeadingKeys (see shared/store/keys.ts). */
const FEED_KEYS = Object.values(keys.feedPrefixes).map((prefix) => `${prefix}*`);

/**
 * The home feed (DESIGN.md "Home feed and counters at scale"): the table stream, filtered to
 * publications of posts and to new follows, feeds the fan-out, which puts each post's followers on
 * the feed queue in messages of 100 readers; the writer puts the inbox entries. Authors with more
 * than FEED_FANOUT_MAX_FOLLOWERS followers are merged into feeds at read time instead.
 */
export class HomeFeed extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** Stream batches the fan-out gave up on (after its retries): those posts reached no inbox. */
  readonly streamFailures: Queue;
  readonly fanOut: NodejsFunction;
  readonly writer: NodejsFunction;

  constructor(scope: Construct, id: string, props: HomeFeedProps) {
    super(scope, id);
    const { table } = props;

    this.deadLetterQueue = failuresQueue(this, 'InboxesDlq');
    this.queue = new Queue(this, 'Inboxes', {
      visibilityTimeout: FEED_QUEUE_VISIBILITY,
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: FEED_MAX_RECEIVE_COUNT },
    });
    this.streamFailures = failuresQueue(this, 'FanOutFailures');
    const environment = { ...props.environment, FEED_QUEUE_URL: this.queue.queueUrl };

    this.fanOut = apiFunction(this, 'FanOut', 'functions/feed-pipeline/fan-out.ts', environment, {
      timeout: Duration.seconds(120),
      description: 'Home feed fan-out: published posts and new follows from the table stream to the feed queue',
    });
    consumeTableStream(this.fanOut, table, {
      ...eventSourceBatching('home-feed'),
      reportBatchItemFailures: true,
      parallelizationFactor: FEED_FAN_OUT_PARALLELIZATION,
      failures: this.streamFailures,
      filters: [
        newImagesWhere(entityTags.post, { status: 'published', kind: 'post' }, 'INSERT', 'MODIFY'),
        newImagesOf(entityTags.follow, 'INSERT'),
      ],
    });

    this.writer = apiFunction(this, 'Writer', 'functions/feed-pipeline/write-inboxes.ts', environment, {
      timeout: FEED_WRITER_TIMEOUT,
      description: 'Home feed writer: feed queue messages to inbox entries',
    });
    this.writer.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: FEED_WRITER_BATCH_SIZE,
        maxConcurrency: FEED_WRITER_MAX_CONCURRENCY,
        reportBatchItemFailures: true,
      }),
    );

    for (const fn of [this.fanOut, this.writer]) {
      // Reads anywhere (posts, follows and their indexes); writes only to the feed's own items.
      fn.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
          resources: [table.tableArn, `${table.tableArn}/index/*`],
        }),
      );
      fn.addToRolePolicy(feedWrites(table, ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem']));
      this.queue.grantSendMessages(fn);
    }

    // The feed read deletes stale entries and unfollowed read-time authors behind itself: only those.
    for (const name of FEED_CLEANING_ROUTES)
      props.routeFunctions
        ?.get(name)
        ?.addToRolePolicy(feedWrites(table, ['dynamodb:BatchWriteItem', 'dynamodb:UpdateItem']));
  }
}

function feedWrites(table: ITable, actions: string[]): PolicyStatement {
  return new PolicyStatement({
    effect: Effect.ALLOW,
    actions,
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': FEED_KEYS } },
  });
}
