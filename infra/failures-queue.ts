import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * A queue that keeps what a consumer gave up on (a dead-letter queue, or a stream consumer's
 * on-failure destination) for SQS's longest retention, 14 days, so that an operator alarmed by
 * it has two weeks to look; encrypted, TLS only.
 */
export function failuresQueue(scope: Construct, id: string): Queue {
  return new Queue(scope, id, {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
}
