import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { consumeTableStream } from './stream-consumer.js';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NOTIFY_RECORD_MAX_AGE_SECONDS } from '../shared/notifications/from-stream.js';
import { entityTags, keys } from '../shared/store/keys.js';
import { apiFunction } from './lambda-defaults.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { newImagesOf, newImagesOfAnyWhere, newImagesWhere, sortKeysOf } from './stream-filters.js';
import { failuresQueue } from './failures-queue.js';

export interface NotificationsProps {
  /** The single table; its stream carries the outbox events, grants, likes and follows. */
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
}

/**
 * One invocation per stream shard at a time: a group's watermark of a shard is the last record it
 * folded, so a shard's batches must be folded in order (as the counter fold's, infra/counters.ts).
 */
export const NOTIFY_PARALLELIZATION = 1;
/** Only a tumbling window makes Lambda name the shard the watermarks are kept by. */
export const NOTIFY_WINDOW = Duration.minutes(15);

/** The partition keys of the notifications' items, for IAM's dynamodb:LeadingKeys (see shared/store/keys.ts). */
const NOTIFICATION_KEYS = keys.notificationPrefixes.map((prefix) => `${prefix}*`);

/**
 * The notifications inbox (DESIGN.md "Notifications"): one Lambda on the table stream, filtered to
 * outbox events, pending grants (an invitation created or resent), INSERTs and REMOVEs of
 * reaction and follow items (a removal has no image: the filter reads the keys), and reports and
 * reported subjects turned resolved (moderation notices); each record
 * notifies at most once (shared/notifications/from-stream.ts).
 */
export class Notifications extends Construct {
  readonly fn: NodejsFunction;
  /** Stream records the consumer gave up on (after retries, or older than an hour): their notifications are missing. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: NotificationsProps) {
    super(scope, id);
    const { table } = props;
    this.failures = failuresQueue(this, 'Failures');
    this.fn = apiFunction(this, 'Notify', 'functions/notifications-pipeline/notify.ts', props.environment, {
      timeout: Duration.seconds(60),
      description:
        'Notifications: mentions, replies, quotes, comments, likes, follows, grants and moderation from the table stream',
    });
    consumeTableStream(this.fn, table, {
      ...eventSourceBatching('notify'),
      reportBatchItemFailures: true,
      parallelizationFactor: NOTIFY_PARALLELIZATION,
      maxRecordAge: Duration.seconds(NOTIFY_RECORD_MAX_AGE_SECONDS),
      failures: this.failures,
      tumblingWindow: NOTIFY_WINDOW,
      filters: [
        newImagesOf(entityTags.event, 'INSERT'),
        newImagesWhere(entityTags.grant, { status: 'pending' }, 'INSERT', 'MODIFY'),
        sortKeysOf(keys.reactionSortKeyPrefix, 'INSERT', 'REMOVE'),
        sortKeysOf(keys.followSortKeyPrefix, 'INSERT', 'REMOVE'),
        // Moderation notices: reports closed, and reported subjects resolved (content removed).
        newImagesOfAnyWhere([entityTags.report, entityTags.reportedSubject], { status: 'resolved' }, 'MODIFY'),
      ],
    });
    // Reads anywhere (posts, comments, follows, preferences, group states); writes only its own items.
    this.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'],
        resources: [table.tableArn],
      }),
    );
    this.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': NOTIFICATION_KEYS } },
      }),
    );
  }
}
