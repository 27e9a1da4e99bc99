import { STREAM_RETRY_ATTEMPTS } from './stream-retries.js';
import { Aws, Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MEDIA_FILES_PREFIX, MEDIA_UPLOAD_PREFIX } from '../shared/domain/media.js';
import { keys } from '../shared/store/keys.js';
import { apiFunction } from './lambda-defaults.js';
import { MediaBuckets } from './media-buckets.js';
import { removalsOf } from './stream-filters.js';
import { eventSourceBatching } from './stream-event-batching.js';

/** HTTP routes that sign presigned POST forms: their credentials are what S3 checks the upload against. */
export const UPLOAD_SIGNING_ROUTES = ['createMedia'] as const;

/**
 * The processor's memory. sharp is CPU-bound and Lambda's CPU share grows with memory: at 1,769 MB
 * a function has one full vCPU. Below it, decoding and encoding take proportionally longer for
 * about the same GB-seconds (the price is per GB-s), so less memory saves nothing and adds
 * latency. Above it the second vCPU would sit idle: on glibc Linux sharp runs libvips with one
 * thread per image (`sharp.concurrency()` is 1 there, to keep memory from fragmenting). Memory
 * itself is not the limit: peak RSS measured here (x64, 2026-11-24) 225 MB for a 12-megapixel
 * photo as an avatar, 361 MB as a post image, 489 MB for a 40-megapixel PNG
 * (MEDIA_MAX_INPUT_PIXELS), about 1.3 s of CPU for the 12-megapixel post image.
 */
export const PROCESSOR_MEMORY_MB = 1769;
/** DESIGN.md: 30 s, ample for a 12-megapixel photo (about 1.3 s of CPU measured here) and a 40-megapixel PNG. */
export const PROCESSOR_TIMEOUT = Duration.seconds(30);
/**
 * Lambda retries a failed asynchronous invocation this often before the on-failure destination
 * gets it (the processor's writes are conditional, so a retry never undoes a finished media).
 */
export const PROCESSOR_RETRY_ATTEMPTS = 2;
/** An S3 event older than this is not processed any more: the upload form is valid 15 minutes. */
export const PROCESSOR_MAX_EVENT_AGE = Duration.hours(6);

/** What S3 sends the processor: every way an object is created under the upload prefix. */
export const UPLOAD_EVENT = 's3:ObjectCreated:*';

/** The key of a media with no id: the prefix of every media item's partition key, and its sort key. */
const MEDIA_ITEM_KEY = keys.media('');

export interface MediaPipelineProps {
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
  /** Functions that sign upload forms (UPLOAD_SIGNING_ROUTES), each on a role of its own. */
  uploadSigners: readonly NodejsFunction[];
}

/**
 * The media pipeline in AWS (DESIGN.md "Media pipeline"): a presigned POST puts an upload under
 * `incoming/` in the uploads bucket, whose ObjectCreated notification invokes the processor; the
 * processor writes the variants to the media bucket (served by CloudFront) and deletes the
 * upload. When DynamoDB's TTL removes a media item, the clean-up Lambda deletes its files.
 */
export class MediaPipeline extends Construct {
  readonly buckets: MediaBuckets;
  readonly processor: NodejsFunction;
  /** Upload events the processor failed on, after Lambda's retries (the event and the error). */
  readonly processingFailures: Queue;
  readonly cleanUp: NodejsFunction;
  /** Media removals whose files the clean-up gave up on (after its retries): those files stay. */
  readonly cleanUpFailures: Queue;
  /** The functions that sign upload forms, as given. */
  readonly uploadSigners: readonly NodejsFunction[];

  constructor(scope: Construct, id: string, props: MediaPipelineProps) {
    super(scope, id);
    this.uploadSigners = props.uploadSigners;
    const buckets = new MediaBuckets(this, 'Buckets');
    this.buckets = buckets;
    const failureQueue = (queueId: string) =>
      new Queue(this, queueId, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });

    // Processor: one upload in, four files out, the media item moved on with conditional writes.
    // It names the uploads bucket by name only (buckets.uploadsByName), because the bucket's
    // notification names the processor: see below.
    this.processingFailures = failureQueue('ProcessingFailures');
    this.processor = apiFunction(
      this,
      'Processor',
      'functions/media-pipeline/process-upload.ts',
      {
        ...props.environment,
        MEDIA_UPLOAD_BUCKET: buckets.uploadsByName.bucketName,
        MEDIA_BUCKET: buckets.media.bucketName,
        MEDIA_BASE_URL: buckets.baseUrl,
      },
      {
        memorySize: PROCESSOR_MEMORY_MB,
        timeout: PROCESSOR_TIMEOUT,
        description: 'Media processor: an upload from the uploads bucket to its four files in the media bucket',
        nativeModules: ['sharp'],
      },
    );
    this.processor.configureAsyncInvoke({
      // A destination rather than a DLQ: its record holds the error and why Lambda gave up, not only the event.
      onFailure: new SqsDestination(this.processingFailures),
      retryAttempts: PROCESSOR_RETRY_ATTEMPTS,
      maxEventAge: PROCESSOR_MAX_EVENT_AGE,
    });
    this.processor.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:GetObject', 's3:DeleteObject'],
        resources: [buckets.uploadsByName.arnForObjects(`${MEDIA_UPLOAD_PREFIX}*`)],
      }),
    );
    // Without ListBucket, S3 answers a read of a missing key with 403 AccessDenied instead of 404
    // NoSuchKey, and the storage port reads a missing upload (an event seen again after the upload
    // was processed and deleted) as "none". Unconditioned: the check S3 makes for that answer
    // carries no prefix to match. It reveals only upload keys, whose objects the role may read anyway.
    this.processor.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:ListBucket'],
        resources: [buckets.uploadsByName.bucketArn],
      }),
    );
    this.processor.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:PutObject'],
        resources: [buckets.media.arnForObjects(`${MEDIA_FILES_PREFIX}*`)],
      }),
    );
    // Reads and conditional updates of media items, and of nothing else in the table.
    this.processor.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${MEDIA_ITEM_KEY.pk}*`] } },
      }),
    );

    // The notification is the bucket's own property instead of CDK's notifications custom
    // resource (a Python Lambda with a role of its own, outside the service's function defaults).
    // S3 checks that it may invoke the function when the notification is set, so the bucket waits
    // for the permission; and since the bucket then depends on the processor, nothing the
    // processor depends on may refer to the bucket resource: hence the bucket's fixed name
    // (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-s3-bucket-notificationconfig.html).
    this.processor.addPermission('InvokedByUploads', {
      principal: new ServicePrincipal('s3.amazonaws.com'),
      sourceArn: buckets.uploadsByName.bucketArn,
      sourceAccount: Aws.ACCOUNT_ID,
    });
    (buckets.uploads.node.defaultChild as CfnBucket).notificationConfiguration = {
      lambdaConfigurations: [
        {
          event: UPLOAD_EVENT,
          filter: { s3Key: { rules: [{ name: 'prefix', value: MEDIA_UPLOAD_PREFIX }] } },
          function: this.processor.functionArn,
        },
      ],
    };
    buckets.uploads.node.addDependency(this.processor.node.findChild('InvokedByUploads'));

    // Clean-up: the table stream, filtered to removals of media items (their TTL expired: never
    // attached, or replaced long enough ago), deletes the media's files.
    this.cleanUpFailures = failureQueue('CleanUpFailures');
    this.cleanUp = apiFunction(
      this,
      'CleanUp',
      'functions/media-pipeline/clean-up-media.ts',
      { ...props.environment, MEDIA_BUCKET: buckets.media.bucketName },
      {
        timeout: Duration.seconds(60),
        description: "Media clean-up: a media item's removal from the table stream to the deletion of its files",
      },
    );
    this.cleanUp.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        ...eventSourceBatching('media-clean-up'),
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        onFailure: new SqsDlq(this.cleanUpFailures),
        filters: [removalsOf(MEDIA_ITEM_KEY.pk, MEDIA_ITEM_KEY.sk)],
      }),
    );
    // List one media's files and delete them: under media/ only.
    this.cleanUp.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:DeleteObject'],
        resources: [buckets.media.arnForObjects(`${MEDIA_FILES_PREFIX}*`)],
      }),
    );
    this.cleanUp.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['s3:ListBucket'],
        resources: [buckets.media.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${MEDIA_FILES_PREFIX}*`] } },
      }),
    );

    // The routes that sign upload forms: S3 accepts a form only if its signer may PutObject the
    // key, so this grant (on their own roles) is the whole of what a form can do.
    for (const signer of props.uploadSigners) {
      signer.addEnvironment('MEDIA_UPLOAD_BUCKET', buckets.uploads.bucketName);
      signer.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['s3:PutObject'],
          resources: [buckets.uploads.arnForObjects(`${MEDIA_UPLOAD_PREFIX}*`)],
        }),
      );
    }
  }
}
