import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TABLE } from '../shared/store/table.js';
import { apiFunction } from './lambda-defaults.js';
import { consumeTableStream } from './stream-consumer.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { newImagesCarrying } from './stream-filters.js';

export interface AuditLogProps {
  /** The single table; its stream carries the writes' audit stamps. */
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
}

/**
 * The workspace audit log: the table stream, filtered to new images that carry an audit stamp
 * (`written_by`, store/audit-stamp.ts), becomes one entry per audited write. Entries are keyed by
 * their request, so retries, bisected batches and replays write the same entries again.
 */
export class AuditLog extends Construct {
  readonly fn: NodejsFunction;
  /** Stream records the recorder gave up on (after retries): those writes are missing from the log. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: AuditLogProps) {
    super(scope, id);
    this.failures = new Queue(this, 'Failures', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.fn = apiFunction(this, 'Record', 'functions/audit/record-audit.ts', props.environment, {
      timeout: Duration.seconds(60),
      description: 'Audit log: the audit stamps of the table stream to the workspaces’ audit entries',
    });
    consumeTableStream(this.fn, props.table, {
      ...eventSourceBatching('audit-log'),
      failures: this.failures,
      filters: [newImagesCarrying(TABLE.auditStampAttribute, 'request_id', 'INSERT', 'MODIFY')],
    });
    // It only puts entries: nothing else.
    props.table.grant(this.fn, 'dynamodb:PutItem');
  }
}
