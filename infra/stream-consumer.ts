/**
 * The one way a function consumes the table stream: from the oldest record kept, a failing batch
 * bisected to find its record, retried STREAM_RETRY_ATTEMPTS times (unless the consumer says
 * otherwise), then handed to its failure queue. The rest (batch size and window, parallelization,
 * tumbling window, record age, filters) is each consumer's, named at its call.
 */
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, type DynamoEventSourceProps } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { STREAM_RETRY_ATTEMPTS } from './stream-retries.js';

export type StreamConsumerProps = Omit<
  DynamoEventSourceProps,
  'startingPosition' | 'bisectBatchOnError' | 'onFailure'
> & {
  /** Where a batch goes once its retries are spent. */
  failures: IQueue;
};

export function consumeTableStream(fn: IFunction, table: ITable, { failures, ...props }: StreamConsumerProps): void {
  fn.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: StartingPosition.TRIM_HORIZON,
      bisectBatchOnError: true,
      retryAttempts: STREAM_RETRY_ATTEMPTS,
      ...props,
      onFailure: new SqsDlq(failures),
    }),
  );
}
