import { STREAM_RETRY_ATTEMPTS } from './stream-retries.js';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { newImagesOf } from './stream-filters.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { entityTags } from '../shared/store/keys.js';
import { apiFunction } from './lambda-defaults.js';

export interface AuthorCardsProps {
  /** The single table; its stream carries profile changes. */
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
}

/**
 * Keeps the author card that every post carries (so a post reads in one request) in step with
 * its profile: the table stream, filtered to MODIFYs of profile items, refreshes the cards of the
 * profile's posts. The refresh is idempotent and only replaces a card with a newer one, so
 * retries, bisected batches and replays are harmless.
 */
export class AuthorCards extends Construct {
  readonly fn: NodejsFunction;
  /** Stream records the refresh gave up on (after retries): their profiles' cards stay stale until the next change. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: AuthorCardsProps) {
    super(scope, id);
    this.failures = new Queue(this, 'Failures', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.fn = apiFunction(this, 'Refresh', 'functions/profile-stream/refresh-author-cards.ts', props.environment, {
      timeout: Duration.seconds(60),
      description: 'Author cards: profile changes from the table stream to the posts that carry them',
    });
    this.fn.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        ...eventSourceBatching('author-cards'),
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        onFailure: new SqsDlq(this.failures),
        filters: [newImagesOf(entityTags.profile, 'MODIFY')],
      }),
    );
    // Read the profile, find its posts by their author's path, update their cards: nothing else.
    props.table.grant(this.fn, 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem');
  }
}
