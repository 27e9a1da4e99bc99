import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { entityTags, keys } from '../shared/store/keys.js';
import { apiFunction } from './lambda-defaults.js';
import { consumeTableStream } from './stream-consumer.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { LOGGED_CONVERSATION_CHANGES } from '../shared/live/sources.js';
import { newImagesOf, newImagesWithAnyOf } from './stream-filters.js';
import { failuresQueue } from './failures-queue.js';

export interface LiveProps {
  table: ITable;
  environment: Record<string, string>;
}

/**
 * The per-profile event logs (DESIGN.md "The event log and live transports"): one Lambda on the
 * table stream, filtered to notifications created or changed, conversation items a message or a
 * read mark of the other side moved, and feed entries created,
 * appending each profile's events to its log (shared/live/from-stream.ts). Several shards may
 * append to one profile's log at once: the log's conditional appends order them, so shards are
 * read in parallel.
 */
export class Live extends Construct {
  readonly logEvents: NodejsFunction;
  /** Stream records the consumer gave up on: their events are missing from the logs. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: LiveProps) {
    super(scope, id);
    const { table } = props;
    this.failures = failuresQueue(this, 'Failures');
    this.logEvents = apiFunction(this, 'LogEvents', 'functions/live-pipeline/log-events.ts', props.environment, {
      timeout: Duration.seconds(60),
      description:
        'Live: the per-profile event logs (notifications, messages, read marks, feed arrivals) from the table stream',
    });
    consumeTableStream(this.logEvents, table, {
      ...eventSourceBatching('live-events'),
      reportBatchItemFailures: true,
      failures: this.failures,
      filters: [
        newImagesOf(entityTags.notification, 'INSERT', 'MODIFY'),
        // A conversation item written by a message or by the other side's read mark; not a
        // hide, an accept, nor the reader's own mark.
        newImagesWithAnyOf(entityTags.conversation, 'last_change', LOGGED_CONVERSATION_CHANGES, 'INSERT', 'MODIFY'),
        newImagesOf(entityTags.feedEntry, 'INSERT'),
      ],
    });
    // Reads what the events show (notifications' subjects, posts, profiles, blocks) and the logs' tails.
    this.logEvents.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
        resources: [table.tableArn],
      }),
    );
    // Writes only the logs.
    this.logEvents.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.eventLog('')}*`] } },
      }),
    );
  }
}
