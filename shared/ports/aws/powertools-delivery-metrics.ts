/**
 * Delivery metrics as CloudWatch embedded metrics (EMF lines on stdout, which Lambda ships to
 * CloudWatch Logs and CloudWatch turns into metrics: no PutMetricData call, no extra latency).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '../../config.js';
import type { AttemptReport, DeliveryMetrics } from '../delivery-metrics.js';

const OUTCOME_METRIC: Record<AttemptReport['outcome'], string> = {
  succeeded: 'DeliveriesSucceeded',
  pending: 'DeliveryRetriesScheduled',
  failed: 'DeliveriesFailed',
};

export function powertoolsDeliveryMetrics(
  metrics = new Metrics({ namespace: config.metricsNamespace, serviceName: 'webhook-sender' }),
): DeliveryMetrics {
  return {
    attempt({ outcome, durationMs }) {
      metrics.addMetric('DeliveryAttempts', MetricUnit.Count, 1);
      metrics.addMetric(OUTCOME_METRIC[outcome], MetricUnit.Count, 1);
      metrics.addMetric('DeliveryAttemptLatency', MetricUnit.Milliseconds, durationMs);
    },
    abandoned() {
      metrics.addMetric('DeliveriesAbandoned', MetricUnit.Count, 1);
    },
    flush() {
      // A batch with nothing sent (duplicates only) publishes nothing rather than a warning.
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    },
  };
}
