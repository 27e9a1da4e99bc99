import { Aws, Duration, Fn } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { MEDIA_UPLOAD_PREFIX, MEDIA_UPLOAD_RETENTION_SECONDS } from '../shared/domain/media.js';

/** How long an upload may wait for its processing before S3 deletes it (S3 counts whole days: synth fails on anything else). */
export const UPLOAD_EXPIRY = Duration.seconds(MEDIA_UPLOAD_RETENTION_SECONDS);
/** Access logs of the buckets and the distribution are kept this long. */
export const ACCESS_LOG_EXPIRY = Duration.days(90);
/** Prefixes of the log bucket: one per source. */
export const ACCESS_LOG_PREFIXES = {
  uploads: 'uploads/',
  media: 'media/',
  distribution: 'cloudfront/',
  /** The data export bucket's (infra/exports.ts), which logs here too. */
  exports: 'exports/',
} as const;

/**
 * The uploads bucket's name, known before the bucket exists: its ObjectCreated notification names
 * the processor Lambda, and the processor's role and environment name the bucket, a cycle that
 * CloudFormation can only build when the name is not a reference to the bucket (see
 * MediaPipeline). Account id and the first block of the stack's UUID keep it unique per stack
 * and unguessable to anyone outside the account; all lowercase, 44 characters.
 */
function uploadsBucketName(): string {
  const stackUuid = Fn.select(2, Fn.split('/', Aws.STACK_ID));
  return Fn.join('-', ['social-network-uploads', Aws.ACCOUNT_ID, Fn.select(0, Fn.split('-', stackUuid))]);
}

/**
 * Where media files live in AWS: the uploads bucket that presigned POST forms write to, the
 * private media bucket with the processed files, the CloudFront distribution that serves them (the
 * only reader, through origin access control), and a bucket for the access logs of all three.
 * Two buckets so that the processor's writes never trigger the processor.
 */
export class MediaBuckets extends Construct {
  readonly uploads: Bucket;
  /**
   * The uploads bucket by its name alone: grants and settings made through it do not depend on
   * the bucket resource (the processor's, see uploadsBucketName).
   */
  readonly uploadsByName: IBucket;
  readonly media: Bucket;
  readonly accessLogs: Bucket;
  readonly distribution: Distribution;
  /** `https://<distribution domain>`, no trailing slash: MEDIA_BASE_URL. */
  readonly baseUrl: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Server access logs are allowed in by a bucket policy (only these buckets, only their
    // prefixes) rather than the log-delivery ACL that CDK grants without this flag.
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);

    const privateBucket = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // SSE-S3: nothing to grant for it. With SSE-KMS every presigned upload, every CloudFront
      // read and every processor write would also need the key, and each request would cost a KMS call.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
    };

    this.accessLogs = new Bucket(this, 'AccessLogs', {
      ...privateBucket,
      // CloudFront's standard logs are written with an ACL grant (to its log delivery account),
      // which needs ACLs enabled on the target bucket; the S3 logs come in through the bucket policy.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: ACCESS_LOG_EXPIRY, abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    const uploadsName = uploadsBucketName();
    this.uploads = new Bucket(this, 'Uploads', {
      ...privateBucket,
      bucketName: uploadsName,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIXES.uploads,
      lifecycleRules: [
        // The processor deletes an upload once it is processed; what is left is abandoned.
        { prefix: MEDIA_UPLOAD_PREFIX, expiration: UPLOAD_EXPIRY },
        // Presigned POSTs are single requests, but nothing else may linger either.
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // The presigned POST form is sent by the client, a browser among them, from whatever origin
      // it runs on (the console, a customer's site). What may be stored is decided by the signed
      // policy (key, type, size, expiry), which an origin list cannot add to: non-browser clients
      // send any Origin they like. `*` lets a browser read S3's answer (204, or the error that
      // says which condition failed); without it the upload still happens but the page cannot tell.
      // A form POST needs no preflight; none of the form's fields is a header.
      cors: [{ allowedMethods: [HttpMethods.POST], allowedOrigins: ['*'], maxAge: 3600 }],
    });
    this.uploadsByName = Bucket.fromBucketName(this, 'UploadsByName', uploadsName);

    this.media = new Bucket(this, 'Media', {
      ...privateBucket,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIXES.media,
      // The clean-up Lambda deletes a media's files with its item; multipart is never used.
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    this.distribution = new Distribution(this, 'Cdn', {
      comment: 'Media files (avatars, banners, post images)',
      defaultBehavior: {
        // Origin access control: the bucket policy lets this distribution, and nobody else, read.
        origin: S3BucketOrigin.withOriginAccessControl(this.media),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        // Managed policy that follows the origin's Cache-Control up to one year, which is what the
        // processor writes on every file (`public, max-age=31536000, immutable`: a media's files
        // never change; a new image is a new media with new URLs). No query string, header or
        // cookie in the cache key.
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        // nosniff among others: the files are user uploads, served with the type the processor chose.
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      // Standard (legacy) logs to the log bucket, in the stack's region. CloudFront delivers none
      // to buckets in opt-in regions (af-south-1, ap-east-1, eu-south-1, me-south-1 and later
      // ones): deploying there needs this logging turned off or a log bucket elsewhere.
      enableLogging: true,
      logBucket: this.accessLogs,
      logFilePrefix: ACCESS_LOG_PREFIXES.distribution,
    });
    this.baseUrl = `https://${this.distribution.distributionDomainName}`;
  }
}
