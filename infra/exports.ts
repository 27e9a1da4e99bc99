import { Duration } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { EXPORT_DOWNLOAD_SECONDS, EXPORT_JOB_TRIES } from '../shared/domain/exports.js';
import type { RouteName } from '../shared/http/contract/route-table.js';
import { keys } from '../shared/store/keys.js';
import { topicAlarm } from './alarms.js';
import { apiFunction } from './lambda-defaults.js';
import { ACCESS_LOG_PREFIXES } from './media-buckets.js';
import { failuresQueue } from './failures-queue.js';

/** The route that queues an export's job. */
export const EXPORT_QUEUEING_ROUTES = ['createExport'] as const;
/** The routes that sign an archive's download URL (a presigned GET is only as good as its signer's s3:GetObject). */
export const EXPORT_SIGNING_ROUTES = ['getExport', 'listExports'] as const;

/** One archive: an account's pages and media files streamed through; 15 minutes is Lambda's most. */
export const EXPORT_JOB_TIMEOUT = Duration.minutes(15);
/** SQS asks for ≥ 6× the function timeout, so a try Lambda retries is not handed over meanwhile. */
export const EXPORT_QUEUE_VISIBILITY = Duration.seconds(EXPORT_JOB_TIMEOUT.toSeconds() * 6);
/** S3 expires objects at a day's boundary: a download that closes after 7 days is gone within 8. */
export const EXPORT_OBJECT_EXPIRY = Duration.seconds(EXPORT_DOWNLOAD_SECONDS + 86_400);

export interface DataExportsProps {
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
  routeFunctions?: ReadonlyMap<RouteName, NodejsFunction>;
  /** Where the buckets' server access logs go (the media buckets' log bucket). */
  accessLogs: IBucket;
  alarmTopic: ITopic;
}

/** The partition keys of what the job writes: its export, the user's claim, the "ready" mail. */
const JOB_WRITE_KEYS = [keys.dataExport('').pk, keys.exportClaim('').pk, keys.mail('').pk].map((pk) => `${pk}*`);

/**
 * Data exports (DESIGN.md "Erasure and export"): the private archive bucket (encrypted, TLS only,
 * objects gone after the download's 7 days), the job queue with its dead-letter queue and alarm,
 * the job Lambda that streams each archive into the bucket by multipart upload, and the export
 * routes' own grants (sending to the queue; signing downloads).
 */
export class DataExports extends Construct {
  readonly bucket: Bucket;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly job: NodejsFunction;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: DataExportsProps) {
    super(scope, id);
    const { table } = props;
    // Its access logs are let into the log bucket by that bucket's policy, as the media buckets' are (media-buckets.ts).
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);

    this.bucket = new Bucket(this, 'Archives', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // SSE-S3: a presigned GET then needs nothing but s3:GetObject (SSE-KMS would add the key to every download).
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIXES.exports,
      lifecycleRules: [{ expiration: EXPORT_OBJECT_EXPIRY, abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    this.deadLetterQueue = failuresQueue(this, 'JobsDlq');
    this.queue = new Queue(this, 'Jobs', {
      visibilityTimeout: EXPORT_QUEUE_VISIBILITY,
      retentionPeriod: Duration.days(1),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: EXPORT_JOB_TRIES },
    });

    this.job = apiFunction(
      this,
      'Job',
      'functions/export-pipeline/build-export.ts',
      { ...props.environment, EXPORT_BUCKET: this.bucket.bucketName },
      {
        timeout: EXPORT_JOB_TIMEOUT,
        description: 'Data export: streams an account archive (ZIP) into the export bucket',
      },
    );
    // One archive per invocation; two at once at most (SQS's floor), so exports never crowd out the API.
    this.job.addEventSource(
      new SqsEventSource(this.queue, { batchSize: 1, maxConcurrency: 2, reportBatchItemFailures: true }),
    );
    // Reads what the API reads; writes only its export, the claim, and the mail.
    this.job.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
        resources: [table.tableArn, `${table.tableArn}/index/*`],
      }),
    );
    this.job.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': JOB_WRITE_KEYS } },
      }),
    );
    // Multipart upload: Create, UploadPart and Complete are s3:PutObject; Abort its own action.
    this.job.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [this.bucket.arnForObjects('*')],
      }),
    );

    for (const name of EXPORT_QUEUEING_ROUTES) {
      const route = props.routeFunctions?.get(name);
      if (!route) continue;
      route.addEnvironment('EXPORT_QUEUE_URL', this.queue.queueUrl);
      this.queue.grantSendMessages(route);
    }
    for (const name of EXPORT_SIGNING_ROUTES) {
      const route = props.routeFunctions?.get(name);
      if (!route) continue;
      route.addEnvironment('EXPORT_BUCKET', this.bucket.bucketName);
      route.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['s3:GetObject'],
          resources: [this.bucket.arnForObjects('*')],
        }),
      );
    }

    this.alarms.push(
      topicAlarm(
        this,
        props.alarmTopic,
        'DeadLettersWaiting',
        'Export jobs are in the dead-letter queue: they failed on every try and those exports were settled as failed. Look at the job logs.',
        this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: 'Maximum',
        }),
        1,
      ),
    );
  }
}
