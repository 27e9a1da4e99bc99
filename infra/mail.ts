import { Duration, Stack } from 'aws-cdk-lib';
import type { Alarm, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SnsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { consumeTableStream } from './stream-consumer.js';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  ConfigurationSet,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { entityTags, keys } from '../shared/store/keys.js';
import { topicAlarm } from './alarms.js';
import { apiFunction } from './lambda-defaults.js';
import { eventSourceBatching } from './stream-event-batching.js';
import { newImagesOf } from './stream-filters.js';

export interface MailProps {
  table: ITable;
  /** Variables every function gets (TABLE_NAME at least). */
  environment: Record<string, string>;
  /** The sender address of every mail (`Name <address>` or an address). */
  from: string;
  /** Verify the sender's whole domain (DKIM records to publish) rather than the one address. */
  identityDomain?: string | undefined;
  alarmTopic: ITopic;
}

/** Mails are waited for by a person: an alarm when the consumer is a minute behind. */
export const MAIL_LAG_ALARM_MS = 60 * 1000;

/** The address inside `Name <address>`. */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from;

/**
 * The service's mail in AWS (DESIGN.md "Mail and account security"): the sender's SES identity, a
 * configuration set whose bounces and complaints go to an SNS topic, the suppression function on
 * that topic (it marks the address; the consumer sends nothing more to it), and the mail consumer:
 * the table stream filtered to INSERTs of mail items, sending each through SES with nothing but
 * ses:SendEmail from the sender's identity through the configuration set.
 */
export class Mail extends Construct {
  readonly identity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;
  /** SES's bounce and complaint events of the configuration set. */
  readonly events: Topic;
  readonly sender: NodejsFunction;
  readonly suppressor: NodejsFunction;
  /** Stream records the consumer gave up on (after retries): those mails were not sent. */
  readonly failures: Queue;
  /** Notifications the suppressor failed on (after Lambda's retries of the SNS invocation). */
  readonly suppressionFailures: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    const failureQueue = (queueId: string) =>
      new Queue(this, queueId, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      // SES's own account-level list too, beside the service's marks.
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
    });
    const address = addressOf(props.from);
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: props.identityDomain ? Identity.domain(props.identityDomain) : Identity.email(address),
      configurationSet: this.configurationSet,
    });
    this.events = new Topic(this, 'Events', { displayName: 'Mail bounces and complaints', enforceSSL: true });
    this.configurationSet.addEventDestination('BouncesAndComplaints', {
      destination: EventDestination.snsTopic(this.events),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });

    // The suppressor: a bounce or complaint marks its addresses (only MAILSUPPRESS# items).
    this.suppressionFailures = failureQueue('SuppressionFailures');
    this.suppressor = apiFunction(
      this,
      'Suppress',
      'functions/mail-pipeline/suppress-addresses.ts',
      props.environment,
      {
        timeout: Duration.seconds(30),
        description: 'Mail suppression: SES bounces and complaints mark the address; no more mail goes to it',
      },
    );
    // SNS's own redrive (it could not invoke the function) and Lambda's (the function failed after its
    // retries; that record carries the error) both land in the one suppression failure queue.
    this.suppressor.addEventSource(new SnsEventSource(this.events, { deadLetterQueue: this.suppressionFailures }));
    this.suppressor.configureAsyncInvoke({ onFailure: new SqsDestination(this.suppressionFailures), retryAttempts: 2 });
    this.suppressor.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.mailSuppression('').pk}*`] } },
      }),
    );

    // The consumer: mail items inserted → sent. It reads the item and the address's mark, and settles the item.
    this.failures = failureQueue('Failures');
    this.sender = apiFunction(
      this,
      'Send',
      'functions/mail-pipeline/send-mail.ts',
      {
        ...props.environment,
        MAIL_FROM: props.from,
        MAIL_CONFIGURATION_SET: this.configurationSet.configurationSetName,
      },
      { timeout: Duration.seconds(60), description: 'Mail: mail items from the table stream sent through Amazon SES' },
    );
    consumeTableStream(this.sender, props.table, {
      ...eventSourceBatching('mail'),
      reportBatchItemFailures: true,
      failures: this.failures,
      filters: [newImagesOf(entityTags.mail, 'INSERT')],
    });
    this.sender.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:GetItem'],
        resources: [props.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': {
            'dynamodb:LeadingKeys': [`${keys.mail('').pk}*`, `${keys.mailSuppression('').pk}*`],
          },
        },
      }),
    );
    this.sender.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.mail('').pk}*`] } },
      }),
    );
    // Only from the sender's identity, only through the configuration set that reports bounces.
    const stack = Stack.of(this);
    this.sender.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['ses:SendEmail'],
        resources: [
          stack.formatArn({ service: 'ses', resource: 'identity', resourceName: this.identity.emailIdentityName }),
          stack.formatArn({
            service: 'ses',
            resource: 'configuration-set',
            resourceName: this.configurationSet.configurationSetName,
          }),
        ],
        conditions: { StringEquals: { 'ses:FromAddress': address } },
      }),
    );

    const alarm = (name: string, description: string, metric: IMetric, threshold: number) =>
      this.alarms.push(topicAlarm(this, props.alarmTopic, name, description, metric, threshold));
    alarm(
      'SendFailuresWaiting',
      'Mail items the mail consumer gave up on are in its failure queue: those mails (verification, reset) were not sent.',
      this.failures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      1,
    );
    alarm(
      'SenderIteratorAge',
      'The mail consumer is behind on the table stream: verification and reset mails arrive more than a minute late.',
      this.sender.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
      MAIL_LAG_ALARM_MS,
    );
    alarm(
      'SuppressionFailuresWaiting',
      'Bounce or complaint notifications the suppressor failed on: those addresses are not marked, and may be mailed again.',
      this.suppressionFailures.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: 'Maximum',
      }),
      1,
    );
  }
}
