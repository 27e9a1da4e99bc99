import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '../../infra/alarms.js';
import { DEFAULT_LOGIN_RESERVED_CONCURRENCY } from '../../infra/settings.js';
import { SENDER_MAX_CONCURRENCY } from '../../infra/sender-event-source.js';
import { FAN_OUT_PARALLELIZATION } from '../../infra/webhook-pipeline.js';
import { keyOf, type Resource, ServiceTemplates } from './service-templates.js';

/** The stack's own template (alarms, topic, pipelines) and, through `templates`, the route stacks'. */
function synth(context: Record<string, unknown> = {}) {
  const templates = new ServiceTemplates(context);
  const { stack, root } = templates;
  return { templates, stack, template: root.template, resources: root.resources };
}

describe('operations: alarms, topic, concurrency', () => {
  let built: ReturnType<typeof synth>;
  let id: (construct: { node: { defaultChild?: unknown } }) => string;
  let topicId: string;
  let alarms: Resource[];
  beforeAll(() => {
    built = synth();
    id = (construct) => built.stack.getLogicalId(construct.node.defaultChild as never);
    topicId = id(built.stack.alarms.topic);
    alarms = Object.values(built.resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
  });
  const alarmOn = (metricName: string, dimension: unknown) =>
    alarms.filter(
      (a) =>
        a.Properties.MetricName === metricName &&
        JSON.stringify(a.Properties.Dimensions).includes(JSON.stringify(dimension)),
    );

  it('sends every alarm, when it fires and when it clears, to the one SNS topic that the stack outputs', () => {
    // The alarm topic, and SES's bounces and complaints (infra/mail.ts), which no alarm uses.
    built.template.resourceCountIs('AWS::SNS::Topic', 2);
    // 19, search's 5 (infra/search.ts), mail's 3 (infra/mail.ts), live events' 2 (infra/live-events.ts), exports' 1
    // (infra/exports.ts) and the erasure's 1 (infra/erasure.ts)
    expect(alarms).toHaveLength(31);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions, alarm.Properties.AlarmDescription).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, alarm.Properties.AlarmDescription).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
      expect(alarm.Properties.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
      expect(alarm.Properties.AlarmDescription.length).toBeGreaterThan(20);
    }
    built.template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
    // Publishing to the topic needs TLS.
    built.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('alarms as soon as anything waits in the deliveries dead-letter queue or a failure queue (fan-out, author cards, audit log, media processing, media clean-up, counter fold)', () => {
    const { deadLetterQueue, fanOutFailures } = built.stack.webhooks;
    const { processingFailures, cleanUpFailures } = built.stack.media;
    for (const queue of [
      deadLetterQueue,
      fanOutFailures,
      built.stack.authorCards.failures,
      built.stack.auditLog.failures,
      processingFailures,
      cleanUpFailures,
      built.stack.counters.failures,
    ]) {
      const [alarm, ...more] = alarmOn('ApproximateNumberOfMessagesVisible', {
        Name: 'QueueName',
        Value: { 'Fn::GetAtt': [id(queue), 'QueueName'] },
      });
      expect(more).toEqual([]);
      expect(alarm!.Properties).toMatchObject({
        Namespace: 'AWS/SQS',
        Statistic: 'Maximum',
        Threshold: 1,
        EvaluationPeriods: 1,
        Period: 60,
      });
    }
    built.template.hasOutput('DeadLetterQueueArn', { Value: { 'Fn::GetAtt': [id(deadLetterQueue), 'Arn'] } });
  });

  it('alarms when the fan-out falls more than 5 minutes behind the table stream', () => {
    const [alarm] = alarmOn('IteratorAge', { Name: 'FunctionName', Value: { Ref: id(built.stack.webhooks.fanOut) } });
    expect(alarm!.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Maximum',
      Threshold: ALARM_THRESHOLDS.iteratorAgeMs,
      Period: 300,
    });
    expect(ALARM_THRESHOLDS.iteratorAgeMs).toBe(300_000);
  });

  it("alarms when anything waits in the feed queue's dead-letter queue or the feed fan-out's failure queue, and when the feed is a minute late", () => {
    const { deadLetterQueue, streamFailures, queue, fanOut } = built.stack.feed;
    for (const failures of [deadLetterQueue, streamFailures]) {
      const [alarm, ...more] = alarmOn('ApproximateNumberOfMessagesVisible', {
        Name: 'QueueName',
        Value: { 'Fn::GetAtt': [id(failures), 'QueueName'] },
      });
      expect(more).toEqual([]);
      expect(alarm!.Properties).toMatchObject({ Namespace: 'AWS/SQS', Statistic: 'Maximum', Threshold: 1, Period: 60 });
    }
    const [behindStream] = alarmOn('IteratorAge', { Name: 'FunctionName', Value: { Ref: id(fanOut) } });
    expect(behindStream!.Properties).toMatchObject({ Namespace: 'AWS/Lambda', Threshold: 60_000, Period: 60 });
    const [behindQueue] = alarmOn('ApproximateAgeOfOldestMessage', {
      Name: 'QueueName',
      Value: { 'Fn::GetAtt': [id(queue), 'QueueName'] },
    });
    expect(behindQueue!.Properties).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 60, Period: 60 });
    expect(ALARM_THRESHOLDS.feedLagMs).toBe(60_000);
  });

  it('alarms when the counter fold falls a minute behind the table stream (counts may lag 2 s), and on any of its errors', () => {
    const fold = { Name: 'FunctionName', Value: { Ref: id(built.stack.counters.fn) } };
    const [age, ...more] = alarmOn('IteratorAge', fold);
    expect(more).toEqual([]);
    expect(age!.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Maximum',
      Threshold: ALARM_THRESHOLDS.countsIteratorAgeMs,
      Period: 60,
    });
    expect(ALARM_THRESHOLDS.countsIteratorAgeMs).toBe(60_000);
    expect(alarmOn('Errors', fold)).toHaveLength(1);
  });

  it('alarms on any error or throttle of the sender and the fan-out', () => {
    for (const fn of [built.stack.webhooks.sender, built.stack.webhooks.fanOut]) {
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarmOn(metric, { Name: 'FunctionName', Value: { Ref: id(fn) } });
        expect(found, `${fn.node.id} ${metric}`).toHaveLength(1);
        expect(found[0]!.Properties).toMatchObject({
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          Threshold: 1,
          Period: 300,
        });
      }
    }
  });

  it("alarms when 5 % or more of the API's requests are answered 5xx in five minutes", () => {
    const rate = alarms.filter((a) => a.Properties.Metrics);
    expect(rate).toHaveLength(1);
    const { Metrics: metrics, Threshold } = rate[0]!.Properties;
    expect(Threshold).toBe(ALARM_THRESHOLDS.serverErrorPercent);
    const byId = Object.fromEntries(metrics.map((m: { Id: string }) => [m.Id, m]));
    expect(metrics.find((m: { Expression?: string }) => m.Expression)).toMatchObject({
      Expression: '100 * errors / requests',
      ReturnData: true,
    });
    const apiDimension = [{ Name: 'ApiId', Value: { Ref: id(built.stack.httpApi.api) } }];
    expect(byId.errors.MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: apiDimension },
      Stat: 'Sum',
      Period: 300,
    });
    expect(byId.requests.MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: apiDimension },
      Stat: 'Sum',
      Period: 300,
    });
  });

  it("decides every function's concurrency: a reserve for log-in, the sender capped by its event source, the fan-out and the counter fold one per shard", () => {
    const { templates } = built;
    const login = templates.locate(built.stack.httpApi.routeFunctions.get('createSession')!);
    // Every function of every template: the route functions are in the route stacks.
    const reserved = templates
      .ofType('AWS::Lambda::Function')
      .map((fn) => [keyOf(fn), templates.resource(fn)!.Properties.ReservedConcurrentExecutions] as const)
      .filter(([, concurrency]) => concurrency !== undefined);
    expect(reserved).toEqual([[keyOf(login), DEFAULT_LOGIN_RESERVED_CONCURRENCY]]);
    built.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id(built.stack.webhooks.sender) },
      ScalingConfig: { MaximumConcurrency: SENDER_MAX_CONCURRENCY },
    });
    built.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id(built.stack.webhooks.fanOut) },
      ParallelizationFactor: FAN_OUT_PARALLELIZATION,
    });
    expect(FAN_OUT_PARALLELIZATION).toBe(1);
    built.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id(built.stack.counters.fn) },
      ParallelizationFactor: 1,
    });
  });
});

describe('operations (context)', () => {
  it.each([
    [0, undefined],
    ['0', undefined],
    ['3', 3],
  ])('takes the log-in reserve from context (loginReservedConcurrency=%j)', (value, expected) => {
    const { stack, templates } = synth({ loginReservedConcurrency: value });
    const login = templates.locate(stack.httpApi.routeFunctions.get('createSession')!);
    expect(templates.resource(login)!.Properties.ReservedConcurrentExecutions).toBe(expected);
  });

  it('subscribes the alarm e-mail address to the topic when given', () => {
    const { stack, template } = synth({ alarmEmail: 'ops@example.com' });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: stack.getLogicalId(stack.alarms.topic.node.defaultChild as never) },
    });
  });

  it.each([
    ['loginReservedConcurrency', '-1'],
    ['loginReservedConcurrency', '2.5'],
    ['alarmEmail', 'not-an-address'],
  ])('refuses %s=%j', (key, value) => {
    expect(() => synth({ [key]: value })).toThrow(key);
  });
});
