import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_JOB_TIMEOUT, EXPORT_OBJECT_EXPIRY, EXPORT_QUEUE_VISIBILITY, DataExports } from '../../infra/exports.js';
import { EXPORT_JOB_TRIES } from '../../shared/domain/exports.js';
import { synthConstruct, TEST_ENV, type ConstructTemplate, type Statement } from '../support/construct-template.js';

let t: ConstructTemplate;
const actions = (s: Statement) => [s.Action].flat();

beforeAll(() => {
  t = synthConstruct(
    'ExportsTest',
    (stack, table, environment) =>
      new DataExports(stack, 'Exports', {
        table,
        environment,
        accessLogs: new Bucket(stack, 'Logs'),
        alarmTopic: new Topic(stack, 'Alarms'),
      }),
    TEST_ENV,
  );
});

describe('data exports (CDK)', () => {
  it('keeps archives in a private, encrypted, TLS-only bucket that expires them after the 7-day download', () => {
    const [, bucket] = t.ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('ExportsArchives'))!;
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(
      bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault,
    ).toEqual({
      SSEAlgorithm: 'AES256',
    });
    const rule = bucket.Properties.LifecycleConfiguration.Rules[0];
    expect(rule).toMatchObject({ Status: 'Enabled', ExpirationInDays: EXPORT_OBJECT_EXPIRY.toDays() });
    expect(rule.ExpirationInDays).toBeGreaterThanOrEqual(7);
    expect(rule.AbortIncompleteMultipartUpload).toEqual({ DaysAfterInitiation: 1 });
    const [, policy] = t.ofType('AWS::S3::BucketPolicy').find(([id]) => id.startsWith('ExportsArchives'))!;
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('runs the job from a queue with a dead-letter queue after its tries, one archive per invocation', () => {
    const dlq = t.logicalId('ExportsJobsDlq', 'AWS::SQS::Queue');
    const [, queue] = t.ofType('AWS::SQS::Queue').find(([, q]) => q.Properties.RedrivePolicy)!;
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: EXPORT_JOB_TRIES,
    });
    expect(queue.Properties.VisibilityTimeout).toBe(EXPORT_QUEUE_VISIBILITY.toSeconds());
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * EXPORT_JOB_TIMEOUT.toSeconds());
    for (const [, q] of t.ofType('AWS::SQS::Queue')) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    t.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 2 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const fn = t.resources[t.logicalId('ExportsJob', 'AWS::Lambda::Function')]!;
    expect(fn.Properties.Timeout).toBe(EXPORT_JOB_TIMEOUT.toSeconds());
    expect(fn.Properties.Environment.Variables.EXPORT_BUCKET).toEqual({
      Ref: t.logicalId('ExportsArchives', 'AWS::S3::Bucket'),
    });
  });

  it('alarms when a job lands in the dead-letter queue', () => {
    t.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': [t.logicalId('ExportsJobsDlq', 'AWS::SQS::Queue'), 'QueueName'] } },
      ],
      Threshold: 1,
    });
  });

  it('grants the job reads, writes to its export, claim and mail only, and multipart uploads into the bucket', () => {
    const statements = t.statementsOf('ExportsJob');
    const writes = statements.find((s) => actions(s).includes('dynamodb:UpdateItem'))!;
    expect(writes.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['EXPORT#*', 'USER#*', 'MAIL#*'] },
    });
    const s3 = statements.filter((s) => actions(s).some((a) => a.startsWith('s3:')));
    expect(s3.flatMap(actions).sort()).toEqual(['s3:AbortMultipartUpload', 's3:PutObject']);
    const everything = statements.flatMap(actions);
    expect(everything).not.toContain('s3:GetObject');
    expect(everything).not.toContain('dynamodb:Scan');
    expect(everything.filter((a) => a.endsWith('*'))).toEqual([]);
  });
});
