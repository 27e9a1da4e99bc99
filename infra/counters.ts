import { STREAM_RETRY_ATTEMPTS } from './stream-retries.js';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { COUNTS_RECORD_MAX_AGE_SECONDS } from '../shared/counters/from-stream.js';
import { keys } from '../shared/store/keys.js';
import { apiFunction } from './lambda-defaults.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { sortKeysOf } from './stream-filters.js';

export interface CounterFoldProps {
  /** The single table; its stream carries every like and follow. */
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
}

/**
 * One fold invocation per stream shard at a time: a shard's watermark is the last record counted,
 * so its batches must be folded in order (a higher factor would fold a shard's records side by
 * side and a later batch's watermark would hide an earlier one's records).
 */
export const COUNTS_PARALLELIZATION = 1;
/** As for the fan-out: only a tumbling window makes Lambda name the shard the watermarks are kept by. */
export const COUNTS_WINDOW = Duration.minutes(15);

/** Partition keys of the items the fold writes counters to: posts (likes, quotes), comments, follower counts. */
const COUNTED_KEY_PATTERNS = [`${keys.post('').pk}*`, `${keys.comment('').pk}*`, `${keys.followerCount('').pk}*`];

/**
 * The counts the whole network writes at once (likes_count, reactions_count, followers_count,
 * quotes_count), folded from the table stream: one Lambda on the stream, filtered by key to
 * INSERTs and REMOVEs of reaction, follow and quote-mark items (a removal carries no image, so the filter reads the keys), each
 * record counted exactly once per shard (shared/counters/from-stream.ts).
 */
export class CounterFold extends Construct {
  readonly fn: NodejsFunction;
  /** Stream records the fold gave up on (after retries, or older than an hour): their counts are off until recounted. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: CounterFoldProps) {
    super(scope, id);
    this.failures = new Queue(this, 'Failures', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.fn = apiFunction(this, 'Fold', 'functions/counters/fold-counts.ts', props.environment, {
      timeout: Duration.seconds(60),
      description: 'Counts: likes, comment reactions, follows and quotes from the table stream to their counters',
    });
    this.fn.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        ...eventSourceBatching('fold-counts'),
        // The handler reports only the records of a counter whose fold failed.
        reportBatchItemFailures: true,
        parallelizationFactor: COUNTS_PARALLELIZATION,
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        // The watermarks are kept for this long after their last fold (and an hour more): a record
        // older than this must not come again.
        maxRecordAge: Duration.seconds(COUNTS_RECORD_MAX_AGE_SECONDS),
        onFailure: new SqsDlq(this.failures),
        tumblingWindow: COUNTS_WINDOW,
        filters: [
          sortKeysOf(keys.reactionSortKeyPrefix, 'INSERT', 'REMOVE'),
          sortKeysOf(keys.followSortKeyPrefix, 'INSERT', 'REMOVE'),
          sortKeysOf(keys.quoteSortKeyPrefix, 'INSERT', 'REMOVE'),
        ],
      }),
    );
    // UpdateItem of counter items only: no read, no put, no delete, nothing else.
    this.fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': COUNTED_KEY_PATTERNS } },
      }),
    );
  }
}
