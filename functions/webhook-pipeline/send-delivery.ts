/** Lambda: the deliveries queue (SQS) → one signed attempt per message; later retries via SQS or EventBridge Scheduler. */
import { eventBridgeRetrySchedulerFromConfig } from '../../shared/ports/aws/eventbridge-retry-scheduler.js';
import { powertoolsDeliveryMetrics } from '../../shared/ports/aws/powertools-delivery-metrics.js';
import { sqsDeliveryQueueFromConfig } from '../../shared/ports/aws/sqs-delivery-queue.js';
import { undiciSender } from '../../shared/ports/outbound/undici-sender.js';
import { deliverySettingsFromConfig, sendDeliveryHandler } from './handlers.js';

export const handler = sendDeliveryHandler(
  {
    queue: sqsDeliveryQueueFromConfig(),
    scheduler: eventBridgeRetrySchedulerFromConfig(),
    http: undiciSender,
    metrics: powertoolsDeliveryMetrics(),
  },
  deliverySettingsFromConfig(),
);
