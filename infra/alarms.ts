import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** The thresholds an operator is paged at (docs/operations.md, "Alarms", lists them too). */
export const ALARM_THRESHOLDS = {
  /** Oldest stream record the fan-out has not handled yet: webhooks are this late. */
  iteratorAgeMs: 5 * 60 * 1000,
  /** Share of API requests answered 5xx within five minutes. */
  serverErrorPercent: 5,
  /** Oldest stream record or queue message the home feed has not handled: posts this late reach feeds (promised: 5 s). */
  feedLagMs: 60 * 1000,
  /** Oldest stream record the counter fold has not handled yet: counts are this late (API.md allows 2 s). */
  countsIteratorAgeMs: 60 * 1000,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

export interface ServiceAlarmsProps {
  api: IHttpApi;
  /** Deliveries the sender failed on five times in a row (poison messages). */
  deadLetterQueue: IQueue;
  /** Stream batches the fan-out gave up on. */
  fanOutFailures: IQueue;
  /** Profile changes the author-card refresh gave up on. */
  authorCardFailures: IQueue;
  /** Audit stamps the audit log's recorder gave up on. */
  auditLogFailures: IQueue;
  /** Uploads the media processor failed on (after Lambda's retries). */
  mediaProcessingFailures: IQueue;
  /** Media removals whose files the clean-up gave up deleting. */
  mediaCleanUpFailures: IQueue;
  sender: IFunction;
  fanOut: IFunction;
  /** The home feed's queues and its stream consumer. */
  feed?: { deadLetterQueue: IQueue; streamFailures: IQueue; queue: IQueue; fanOut: IFunction };
  /** Likes and follows the counter fold gave up on. */
  counterFoldFailures: IQueue;
  counterFold: IFunction;
  /** Subscribed to the topic when given (the address must confirm the subscription). */
  email?: string;
}

/**
 * What pages an operator: every alarm of the service notifies one SNS topic (the stack outputs its
 * ARN), when it fires and when it clears. Missing data counts as fine: an idle queue or a function
 * that did not run reports nothing.
 */
export class ServiceAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Social network API alarms', enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));

    const visible = (queue: IQueue) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' });
    this.add(
      'DeadLettersWaiting',
      'Webhook deliveries are in the dead-letter queue: the sender failed on them repeatedly. Redrive them once the cause is fixed (docs/operations.md in the repository).',
      visible(props.deadLetterQueue),
      1,
    );
    this.add(
      'FanOutFailuresWaiting',
      'Outbox events the fan-out gave up on are in the fan-out failure queue: their webhooks were not created.',
      visible(props.fanOutFailures),
      1,
    );
    this.add(
      'AuthorCardFailuresWaiting',
      "Profile changes the author-card refresh gave up on: those profiles' posts show their previous name until the next change.",
      visible(props.authorCardFailures),
      1,
    );
    this.add(
      'AuditLogFailuresWaiting',
      'Writes the audit log recorder gave up on are in its failure queue: those writes are missing from their workspace’s audit log.',
      visible(props.auditLogFailures),
      1,
    );
    this.add(
      'MediaProcessingFailuresWaiting',
      'Uploads the media processor failed on (uncaught error or timeout, after retries) are in the media processing failure queue: those media stay in processing or awaiting_upload until they expire.',
      visible(props.mediaProcessingFailures),
      1,
    );
    this.add(
      'MediaCleanUpFailuresWaiting',
      "Media removals the clean-up gave up on are in the media clean-up failure queue: those media's files were not deleted from the media bucket.",
      visible(props.mediaCleanUpFailures),
      1,
    );
    this.add(
      'CounterFoldFailuresWaiting',
      'Likes, comment reactions or follows the counter fold gave up on are in its failure queue: the counts they belong to are off until recounted.',
      visible(props.counterFoldFailures),
      1,
    );
    this.add(
      'CounterFoldIteratorAge',
      'The counter fold is behind on the table stream: likes_count, reactions_count and followers_count lag by more than a minute.',
      props.counterFold.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
      ALARM_THRESHOLDS.countsIteratorAgeMs,
    );
    this.add(
      'CounterFoldErrors',
      'The counter fold Lambda failed (uncaught error or timeout): counts are late until it succeeds.',
      props.counterFold.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
      1,
    );
    this.add(
      'FanOutIteratorAge',
      'The fan-out is behind on the table stream: webhooks are late by more than 5 minutes.',
      props.fanOut.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' }),
      ALARM_THRESHOLDS.iteratorAgeMs,
    );
    for (const [name, fn] of [
      ['Sender', props.sender],
      ['FanOut', props.fanOut],
    ] as const) {
      this.add(
        `${name}Errors`,
        `The webhook ${name === 'Sender' ? 'sender' : 'fan-out'} Lambda failed (uncaught error or timeout).`,
        fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
      );
      this.add(
        `${name}Throttles`,
        `The webhook ${name === 'Sender' ? 'sender' : 'fan-out'} Lambda was throttled: the account's concurrency is exhausted.`,
        fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
      );
    }
    if (props.feed) this.addFeed(props.feed);
    this.add(
      'ApiServerErrorRate',
      `At least ${ALARM_THRESHOLDS.serverErrorPercent} % of API requests were answered 5xx in 5 minutes.`,
      new MathExpression({
        expression: '100 * errors / requests',
        usingMetrics: {
          errors: props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
          requests: props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
        },
        label: 'API 5xx %',
        period: FIVE_MINUTES,
      }),
      ALARM_THRESHOLDS.serverErrorPercent,
    );
  }

  private addFeed(feed: NonNullable<ServiceAlarmsProps['feed']>): void {
    const oneMinute = { period: Duration.minutes(1), statistic: 'Maximum' };
    this.add(
      'FeedDeadLettersWaiting',
      'Home feed messages are in the dead-letter queue: the writer failed on them repeatedly, and those followers miss those posts. Redrive them once the cause is fixed.',
      feed.deadLetterQueue.metricApproximateNumberOfMessagesVisible(oneMinute),
      1,
    );
    this.add(
      'FeedFanOutFailuresWaiting',
      'Stream records the home feed fan-out gave up on are in its failure queue: those posts reached no follower and those follows brought no posts.',
      feed.streamFailures.metricApproximateNumberOfMessagesVisible(oneMinute),
      1,
    );
    this.add(
      'FeedFanOutIteratorAge',
      'The home feed fan-out is behind on the table stream: new posts reach feeds more than a minute late.',
      feed.fanOut.metric('IteratorAge', oneMinute),
      ALARM_THRESHOLDS.feedLagMs,
    );
    this.add(
      'FeedQueueAge',
      'The home feed writer is behind on its queue: new posts reach feeds more than a minute late.',
      feed.queue.metricApproximateAgeOfOldestMessage(oneMinute),
      ALARM_THRESHOLDS.feedLagMs / 1000,
    );
  }

  private add(id: string, description: string, metric: IMetric, threshold: number): void {
    this.alarms.push(topicAlarm(this, this.topic, id, description, metric, threshold));
  }
}

/**
 * One alarm of the service: at or above `threshold` in one period, missing data fine, telling
 * `topic` when it fires and when it clears (every construct's alarms go to the one alarm topic).
 */
export function topicAlarm(
  scope: Construct,
  topic: ITopic,
  id: string,
  description: string,
  metric: IMetric,
  threshold: number,
): Alarm {
  const alarm = new Alarm(scope, id, {
    metric,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: description,
  });
  const action = new SnsAction(topic);
  alarm.addAlarmAction(action);
  alarm.addOkAction(action);
  return alarm;
}
