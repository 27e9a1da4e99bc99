/**
 * The complete stage, in two steps (deliver.ts gives the lease back between them). Record: the
 * endpoint's health (written only when it changes), then the attempt and the delivery's outcome in
 * one conditional write. Schedule: the next attempt's message, or the `webhook_delivery.exhausted`
 * event of a delivery that failed for good.
 */
import type { EndpointHealth } from '../domain/endpoint-health.js';
import { outcomeOf, type WebhookEndpointRecord } from '../domain/webhooks.js';
import { logger } from '../logger.js';
import { dispatch, type DeliveryPorts } from '../ports/delivery-ports.js';
import { deliveryMessage, type DeliveryMessage } from '../ports/delivery-queue.js';
import type { StoredDelivery } from '../store/entities.js';
import { completeAttempt } from '../store/webhook-deliveries.js';
import type { DeliverySettings, Recorded, Sent } from './delivery-types.js';
import { recordEndpointHealth, reportExhausted } from './endpoint-health.js';

export async function recordAttempt(
  delivery: StoredDelivery,
  endpoint: WebhookEndpointRecord,
  health: EndpointHealth,
  sent: Sent,
  settings: Pick<DeliverySettings, 'retryDelays' | 'health'>,
  ports: Pick<DeliveryPorts, 'metrics'>,
): Promise<Recorded> {
  const { attempt, startedAt, endedAt } = sent;
  const outcome = outcomeOf(
    attempt.number,
    { statusCode: attempt.status_code, error: attempt.error, responseBody: attempt.response_body, startedAt, endedAt },
    settings.retryDelays,
  );
  await recordEndpointHealth(endpoint, health, outcome, startedAt, endedAt, settings.health);
  const recorded = await completeAttempt(
    delivery,
    attempt,
    {
      status: outcome.status,
      nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt.toISOString() : null,
      deliveredAt: outcome.status === 'succeeded' ? endedAt.toISOString() : null,
    },
    endedAt.toISOString(),
  );
  ports.metrics?.attempt({ outcome: outcome.status, durationMs: attempt.duration_ms });
  if (recorded) return { tag: 'recorded', outcome, sent };
  logger.warn('webhook attempt outcome not recorded: the claim was released meanwhile', {
    delivery_id: delivery.id,
    attempt: attempt.number,
  });
  return { tag: 'lost_claim' };
}

export async function scheduleNext(
  delivery: StoredDelivery,
  { outcome, sent }: Extract<Recorded, { tag: 'recorded' }>,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'queue' | 'scheduler'>,
): Promise<void> {
  if (outcome.status === 'pending')
    await dispatch(ports, deliveryMessage(delivery, message.attempt + 1), outcome.nextAttemptAt, sent.endedAt);
  await reportExhausted(
    {
      ...delivery,
      attempt_count: sent.attempt.number,
      last_status_code: sent.attempt.status_code,
      last_error: sent.attempt.error,
    },
    outcome,
    sent.endedAt,
  );
}
