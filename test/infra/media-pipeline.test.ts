import { CachePolicy, ResponseHeadersPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_EXPIRY, ACCESS_LOG_PREFIXES } from '../../infra/media-buckets.js';
import {
  PROCESSOR_MAX_EVENT_AGE,
  PROCESSOR_MEMORY_MB,
  PROCESSOR_RETRY_ATTEMPTS,
  UPLOAD_SIGNING_ROUTES,
} from '../../infra/media-pipeline.js';
import type { SocialNetworkStack } from '../../infra/stack.js';
import { routes } from '../../shared/http/contract/route-table.js';
import { MEDIA_FILE_CACHE_CONTROL } from '../../shared/ports/media-storage.js';
import { keys } from '../../shared/store/keys.js';
import { TABLE } from '../../shared/store/table.js';
import { keyOf, type Located, ServiceTemplates } from './service-templates.js';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
type Statement = {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
  Principal?: unknown;
};

// What every function's role gets besides its own grants: tracing, and for stream consumers the stream.
const AROUND_THE_GRANTS = new Set([
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'dynamodb:DescribeStream',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:ListStreams',
  'sqs:SendMessage',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
]);

/** Managed cache policy CachingOptimized: minimum 1 s, default 1 day, maximum one year (AWS documentation). */
const CACHING_OPTIMIZED_MAX_TTL_SECONDS = 31_536_000;

let templates: ServiceTemplates;
let stack: SocialNetworkStack;
let template: Template;
let resources: Record<string, Resource>;
let id: (construct: { node: { defaultChild?: unknown } }) => string;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const statementsOfRole = (roleId: string): Statement[] =>
  ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: { Ref?: string }) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
const roleOf = (functionId: string) => resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;
/** The function's own grants: its statements without tracing, stream reading and its failure queue. */
const grantsOf = (functionId: string) =>
  statementsOfRole(roleOf(functionId)).filter((s) => ![s.Action].flat().every((a) => AROUND_THE_GRANTS.has(a)));
const bucketPolicyOf = (bucketId: string): Statement[] =>
  ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === bucketId)![1].Properties.PolicyDocument
    .Statement as Statement[];
const objectsOf = (bucketId: string, prefix: string) => ({
  'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${prefix}*`]],
});

/** The media pipeline is in the stack's own template; the upload route is in the media route stack. */
beforeAll(() => {
  templates = new ServiceTemplates();
  ({ stack } = templates);
  ({ template, resources } = templates.root);
  id = (construct) => stack.getLogicalId(construct.node.defaultChild as never);
});

describe('media buckets (CDK)', () => {
  let uploads: string, media: string, logs: string, distribution: string;
  beforeAll(() => {
    const { buckets } = stack.media;
    [uploads, media, logs, distribution] = [
      id(buckets.uploads),
      id(buckets.media),
      id(buckets.accessLogs),
      id(buckets.distribution),
    ];
  });

  it('keeps every bucket private, encrypted and TLS-only', () => {
    expect(ofType('AWS::S3::Bucket').map(([logicalId]) => logicalId)).toEqual(
      expect.arrayContaining([uploads, media, logs]),
    );
    for (const bucket of [uploads, media, logs]) {
      expect(resources[bucket]!.Properties, bucket).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
      });
      expect(bucketPolicyOf(bucket), bucket).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Principal: { AWS: '*' },
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('expires uploads under incoming/ after a day and aborts incomplete multipart uploads', () => {
    expect(resources[uploads]!.Properties.LifecycleConfiguration.Rules).toEqual([
      { Prefix: 'incoming/', ExpirationInDays: 1, Status: 'Enabled' },
      { AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
    ]);
  });

  it('lets a browser POST the presigned form from any origin and read the answer, and nothing else', () => {
    expect(resources[uploads]!.Properties.CorsConfiguration).toEqual({
      CorsRules: [{ AllowedMethods: ['POST'], AllowedOrigins: ['*'], MaxAge: 3600 }],
    });
    expect(resources[media]!.Properties.CorsConfiguration).toBeUndefined();
  });

  it('logs access to both media buckets, the export bucket and the distribution into the log bucket, which expires the logs', () => {
    expect(resources[uploads]!.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logs },
      LogFilePrefix: ACCESS_LOG_PREFIXES.uploads,
    });
    expect(resources[media]!.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logs },
      LogFilePrefix: ACCESS_LOG_PREFIXES.media,
    });
    expect(resources[distribution]!.Properties.DistributionConfig.Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logs, 'RegionalDomainName'] },
      Prefix: ACCESS_LOG_PREFIXES.distribution,
    });
    expect(resources[logs]!.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ ExpirationInDays: ACCESS_LOG_EXPIRY.toDays(), Status: 'Enabled' }),
    );
    // S3 log delivery may write each bucket's logs under its own prefix, and only for that bucket
    // (the third statement is the data export bucket's, under its own prefix).
    const delivery = bucketPolicyOf(logs).filter((s) => s.Effect === 'Allow');
    expect(delivery).toHaveLength(3);
    expect(delivery).toContainEqual(
      expect.objectContaining({ Action: 's3:PutObject', Resource: objectsOf(logs, ACCESS_LOG_PREFIXES.exports) }),
    );
    for (const [bucket, prefix] of [
      [uploads, ACCESS_LOG_PREFIXES.uploads],
      [media, ACCESS_LOG_PREFIXES.media],
    ] as const) {
      expect(delivery).toContainEqual(
        expect.objectContaining({
          Action: 's3:PutObject',
          Principal: { Service: 'logging.s3.amazonaws.com' },
          Resource: objectsOf(logs, prefix),
          Condition: expect.objectContaining({ ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [bucket, 'Arn'] } } }),
        }),
      );
    }
  });

  it('lets only the distribution read the media bucket (origin access control), and no one read the uploads', () => {
    const oac = ofType('AWS::CloudFront::OriginAccessControl');
    expect(oac).toHaveLength(1);
    expect(oac[0]![1].Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    const [origin, ...others] = resources[distribution]!.Properties.DistributionConfig.Origins;
    expect(others).toEqual([]);
    expect(origin).toMatchObject({
      DomainName: { 'Fn::GetAtt': [media, 'RegionalDomainName'] },
      OriginAccessControlId: { 'Fn::GetAtt': [oac[0]![0], 'Id'] },
    });
    const allows = bucketPolicyOf(media).filter((s) => s.Effect === 'Allow');
    expect(allows).toEqual([
      {
        Effect: 'Allow',
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Resource: objectsOf(media, ''),
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':cloudfront::',
                  { Ref: 'AWS::AccountId' },
                  ':distribution/',
                  { Ref: distribution },
                ],
              ],
            },
          },
        },
      },
    ]);
    expect(bucketPolicyOf(uploads).filter((s) => s.Effect === 'Allow')).toEqual([]);
  });

  it('serves over HTTPS only, GET and HEAD, cached as long as the files say (a year, immutable)', () => {
    const config = resources[distribution]!.Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD'],
      // Managed CachingOptimized: TTL from the origin's Cache-Control, between 1 s and one year
      // (its maximum, 31536000 s, is the max-age the processor writes); no query string,
      // header or cookie in the cache key.
      CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      ResponseHeadersPolicyId: ResponseHeadersPolicy.SECURITY_HEADERS.responseHeadersPolicyId,
    });
    expect(config.CacheBehaviors).toBeUndefined();
    expect(CachePolicy.CACHING_OPTIMIZED.cachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6');
    // What the files carry is within that policy's maximum TTL, so edges keep them the whole year.
    const maxAge = Number(/max-age=(\d+)/.exec(MEDIA_FILE_CACHE_CONTROL)?.[1]);
    expect(maxAge).toBeLessThanOrEqual(CACHING_OPTIMIZED_MAX_TTL_SECONDS);
    expect(MEDIA_FILE_CACHE_CONTROL).toMatch(/^public, .*immutable/);
  });

  it('outputs the two bucket names and the media base URL', () => {
    template.hasOutput('MediaUploadBucketName', { Value: { Ref: uploads } });
    template.hasOutput('MediaBucketName', { Value: { Ref: media } });
    template.hasOutput('MediaBaseUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]] },
    });
  });
});

describe('media processor (CDK)', () => {
  let processor: string, uploads: string, media: string, failures: string, uploadsName: unknown;
  beforeAll(() => {
    processor = id(stack.media.processor);
    uploads = id(stack.media.buckets.uploads);
    media = id(stack.media.buckets.media);
    failures = id(stack.media.processingFailures);
    uploadsName = resources[uploads]!.Properties.BucketName;
  });

  it('names the uploads bucket uniquely per stack, in lowercase, from the account and the stack id', () => {
    expect(uploadsName).toEqual({
      'Fn::Join': [
        '-',
        [
          'social-network-uploads',
          { Ref: 'AWS::AccountId' },
          {
            'Fn::Select': [
              0,
              { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] },
            ],
          },
        ],
      ],
    });
    // 12 digits of the account, 8 hex digits of the stack's UUID: within S3's 63 characters.
    expect('social-network-uploads'.length + 1 + 12 + 1 + 8).toBeLessThanOrEqual(63);
  });

  it("is invoked by the uploads bucket's ObjectCreated notification under incoming/ (the bucket's own property, after the permission)", () => {
    expect(resources[uploads]!.Properties.NotificationConfiguration).toEqual({
      LambdaConfigurations: [
        {
          Event: 's3:ObjectCreated:*',
          Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'incoming/' }] } },
          Function: { 'Fn::GetAtt': [processor, 'Arn'] },
        },
      ],
    });
    const permissions = ofType('AWS::Lambda::Permission').filter(
      ([, p]) => JSON.stringify(p.Properties.FunctionName) === JSON.stringify({ 'Fn::GetAtt': [processor, 'Arn'] }),
    );
    expect(permissions).toHaveLength(1);
    const [permissionId, permission] = permissions[0]!;
    expect(permission.Properties).toEqual({
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [processor, 'Arn'] },
      Principal: 's3.amazonaws.com',
      SourceAccount: { Ref: 'AWS::AccountId' },
      SourceArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::', uploadsName]] },
    });
    expect(resources[uploads]!.DependsOn).toContain(permissionId);
    // No notifications custom resource (and so no Lambda outside the service's defaults).
    expect(Object.values(resources).filter((r) => r.Type === 'Custom::S3BucketNotifications')).toEqual([]);
  });

  it('runs on arm64 Node.js 24 with the memory sharp needs and 30 seconds', () => {
    expect(resources[processor]!.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      MemorySize: PROCESSOR_MEMORY_MB,
      Timeout: 30,
    });
    // One full vCPU (Lambda: 1,769 MB): sharp is CPU-bound.
    expect(PROCESSOR_MEMORY_MB).toBe(1769);
  });

  it('knows both buckets and the public base URL of the files', () => {
    expect(resources[processor]!.Properties.Environment.Variables).toMatchObject({
      MEDIA_UPLOAD_BUCKET: uploadsName,
      MEDIA_BUCKET: { Ref: media },
      MEDIA_BASE_URL: {
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [id(stack.media.buckets.distribution), 'DomainName'] }]],
      },
    });
  });

  it('sends invocations that failed after retries to its failure queue', () => {
    const configs = ofType('AWS::Lambda::EventInvokeConfig').filter(
      ([, c]) => c.Properties.FunctionName.Ref === processor,
    );
    expect(configs).toHaveLength(1);
    expect(configs[0]![1].Properties).toEqual({
      FunctionName: { Ref: processor },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: PROCESSOR_RETRY_ATTEMPTS,
      MaximumEventAgeInSeconds: PROCESSOR_MAX_EVENT_AGE.toSeconds(),
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failures, 'Arn'] } } },
    });
    expect(resources[failures]!.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 1_209_600,
    });
    expect(statementsOfRole(roleOf(processor))).toContainEqual(
      expect.objectContaining({
        Action: expect.arrayContaining(['sqs:SendMessage']),
        Resource: { 'Fn::GetAtt': [failures, 'Arn'] },
      }),
    );
  });

  it('may read and delete uploads, write media files and update media items, and nothing else', () => {
    const tableId = id(stack.table);
    expect(grantsOf(processor)).toEqual([
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:DeleteObject'],
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::', uploadsName, '/incoming/*']] },
      },
      // A missing upload reads as 404 NoSuchKey, not 403.
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::', uploadsName]] },
      },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: objectsOf(media, 'media/') },
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.media('').pk}*`] } },
      },
    ]);
    expect(keys.media('abc').pk).toBe('MEDIA#abc');
  });
});

describe('media clean-up (CDK)', () => {
  let cleanUp: string, media: string;
  beforeAll(() => {
    cleanUp = id(stack.media.cleanUp);
    media = id(stack.media.buckets.media);
  });

  it('reads REMOVE records of media items from the table stream, with retries, bisection and a failure queue', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(
      ([, m]) => m.Properties.FunctionName.Ref === cleanUp,
    );
    expect(mappings).toHaveLength(1);
    const mapping = mappings[0]![1].Properties;
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [id(stack.table), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [id(stack.media.cleanUpFailures), 'Arn'] } } },
    });
    // The stream carries new images only, so a REMOVE has keys and no image: media items by their keys.
    expect(TABLE.streamView).toBe('NEW_IMAGE');
    const { pk, sk } = keys.media('');
    expect(mapping.FilterCriteria.Filters.map((f: { Pattern: string }) => JSON.parse(f.Pattern))).toEqual([
      { eventName: ['REMOVE'], dynamodb: { Keys: { pk: { S: [{ prefix: pk }] }, sk: { S: [sk] } } } },
    ]);
  });

  it('may list and delete files under media/ in the media bucket, and nothing else', () => {
    expect(resources[cleanUp]!.Properties.Environment.Variables).toMatchObject({ MEDIA_BUCKET: { Ref: media } });
    expect(grantsOf(cleanUp)).toEqual([
      { Effect: 'Allow', Action: 's3:DeleteObject', Resource: objectsOf(media, 'media/') },
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: { 'Fn::GetAtt': [media, 'Arn'] },
        Condition: { StringLike: { 's3:prefix': ['media/*'] } },
      },
    ]);
  });
});

describe('upload signing (CDK)', () => {
  /** The statements of a function's role, in whichever template defines the role. */
  const statementsOfFunction = (fn: Located): Statement[] => {
    const role = templates.target(fn.at, templates.resource(fn)!.Properties.Role);
    return Object.values(role.at.resources)
      .filter(
        (p) => p.Type === 'AWS::IAM::Policy' && p.Properties.Roles.some((r: { Ref?: string }) => r.Ref === role.id),
      )
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
  };

  it('gives the createMedia route the uploads bucket and a role of its own that may PutObject under incoming/ only', () => {
    expect(UPLOAD_SIGNING_ROUTES).toEqual(['createMedia']);
    expect(routes.createMedia.method).toBe('POST');
    // Not an MCP tool: otherwise the MCP function would sign forms too and need this grant on a
    // role of its own (it shares the readWrite class role).
    expect(routes.createMedia.mcp).toBe(false);
    const fn = templates.locate(stack.httpApi.routeFunctions.get('createMedia')!);
    const uploads = id(stack.media.buckets.uploads);
    // The bucket's name, passed down to the media route stack.
    const bucket = templates.resource(fn)!.Properties.Environment.Variables.MEDIA_UPLOAD_BUCKET;
    expect(templates.resolve(fn.at, bucket).value).toEqual({ Ref: uploads });
    const s3 = statementsOfFunction(fn).filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));
    expect(s3).toEqual([{ Effect: 'Allow', Action: 's3:PutObject', Resource: objectsOf(uploads, 'incoming/') }]);
    // The role is the route's own: no other function of any template shares it.
    const roleOf = (f: Located) => keyOf(templates.target(f.at, templates.resource(f)!.Properties.Role));
    const sharing = templates.ofType('AWS::Lambda::Function').filter((f) => roleOf(f) === roleOf(fn));
    expect(sharing.map(keyOf)).toEqual([keyOf(fn)]);
  });

  it('grants S3 to the signer, the processor and the clean-up, the export job and its download signers, and the erasure, and to no other function', () => {
    const withS3 = templates
      .ofType('AWS::Lambda::Function')
      .filter((fn) => statementsOfFunction(fn).some((s) => [s.Action].flat().some((a) => a.startsWith('s3:'))))
      .map(keyOf)
      .sort();
    expect(withS3).toEqual(
      [
        stack.httpApi.routeFunctions.get('createMedia')!,
        stack.media.processor,
        stack.media.cleanUp,
        stack.exports.job,
        stack.httpApi.routeFunctions.get('getExport')!,
        stack.httpApi.routeFunctions.get('listExports')!,
        stack.erasure.fn,
      ]
        .map((fn) => keyOf(templates.locate(fn)))
        .sort(),
    );
  });
});
