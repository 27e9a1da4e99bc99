import { Match } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Mail } from '../../infra/mail.js';
import { STREAM_BATCHING } from '../../infra/stream-batching.js';
import { DEFAULT_MAIL_FROM, stackSettings } from '../../infra/settings.js';
import { STREAM_READING, synthConstruct, TEST_ENV, type ConstructTemplate } from '../support/construct-template.js';

let mail: ConstructTemplate;

beforeAll(() => {
  mail = synthConstruct(
    'MailTest',
    (stack, table, environment) =>
      new Mail(stack, 'Mail', {
        table,
        environment,
        from: 'Social <no-reply@example.org>',
        alarmTopic: new Topic(stack, 'Alarms'),
      }),
    TEST_ENV,
  );
});

const ownStatements = (fn: string) =>
  mail
    .statementsOf(fn)
    .filter((s) => ![s.Action].flat().every((a) => STREAM_READING.includes(a) || a.startsWith('xray:')));

describe('mail (CDK)', () => {
  it('verifies the sender identity and reports its bounces and complaints to an SNS topic', () => {
    const { template } = mail;
    template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'no-reply@example.org',
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: Match.stringLikeRegexp('^MailConfigurationSet') } },
    });
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint'],
        SnsDestination: { TopicARN: { Ref: Match.stringLikeRegexp('^MailEvents') } },
      },
    });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: Match.stringLikeRegexp('^MailEvents') },
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue() },
    });
  });

  it('sends mail items from the stream with ses:SendEmail from the sender only, through the configuration set', () => {
    mail.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: STREAM_BATCHING.mail.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['mail'] } } } }) },
        ],
      },
    });
    const send = mail.resources[mail.logicalId('MailSend', 'AWS::Lambda::Function')]!;
    expect(send.Properties.Environment.Variables).toMatchObject({
      MAIL_FROM: 'Social <no-reply@example.org>',
      MAIL_CONFIGURATION_SET: { Ref: expect.stringMatching(/^MailConfigurationSet/) },
    });
    const statements = ownStatements('MailSend');
    const ses = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
    expect(ses).toEqual([
      expect.objectContaining({
        Action: 'ses:SendEmail',
        Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@example.org' } },
      }),
    ]);
    expect(JSON.stringify(ses[0]!.Resource)).toContain(':identity/');
    expect(JSON.stringify(ses[0]!.Resource)).toContain(':configuration-set/');
    const dynamo = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:GetItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MAIL#*', 'MAILSUPPRESS#*'] } },
      }),
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MAIL#*'] } },
      }),
    ]);
  });

  it('lets the suppressor put only suppression marks', () => {
    expect(
      ownStatements('MailSuppress').filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:'))),
    ).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:PutItem',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MAILSUPPRESS#*'] } },
      }),
    ]);
  });

  it('alarms on failed mail, a lagging consumer and failed suppressions', () => {
    mail.template.resourceCountIs('AWS::SQS::Queue', 2);
    mail.template.resourceCountIs('AWS::CloudWatch::Alarm', 3);
    mail.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'IteratorAge',
      AlarmActions: [{ Ref: Match.stringLikeRegexp('^Alarms') }],
    });
  });
});

describe('mail settings', () => {
  const settings = (context: Record<string, unknown>) => stackSettings(new App({ context }));

  it('read the sender and the identity domain from context, the sender defaulting to a placeholder', () => {
    expect(settings({})).toMatchObject({ mailFrom: DEFAULT_MAIL_FROM, mailIdentityDomain: undefined });
    expect(settings({ mailFrom: 'hello@example.org', mailIdentityDomain: 'example.org' })).toMatchObject({
      mailFrom: 'hello@example.org',
      mailIdentityDomain: 'example.org',
    });
    expect(() => settings({ mailFrom: 'not an address' })).toThrow(/mailFrom/);
    expect(() => settings({ mailIdentityDomain: 'no_domain' })).toThrow(/mailIdentityDomain/);
  });

  it('verify the whole domain when one is given', () => {
    const { template } = synthConstruct(
      'MailDomainTest',
      (stack, table, environment) =>
        new Mail(stack, 'Mail', {
          table,
          environment,
          from: 'hello@example.org',
          identityDomain: 'example.org',
          alarmTopic: new Topic(stack, 'Alarms'),
        }),
      TEST_ENV,
    );
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'example.org' });
  });
});
