/**
 * After each attempt: the endpoint's failure streak (written only when it starts or ends), the
 * disable (410, or failing for the health period) with its `webhook_endpoint.disabled` event in the
 * same transaction, and `webhook_delivery.exhausted` when a delivery has failed for good.
 */
import {
  deliveryExhaustedEvent,
  endpointDisabledEvent,
  failingTooLong,
  type EndpointHealth,
  type HealthSettings,
} from '../domain/endpoint-health.js';
import { isOperationalEvent } from '../domain/events.js';
import {
  deliveryIdFor,
  type DeliveryRecord,
  type DisabledReason,
  type Outcome,
  type WebhookEndpointRecord,
} from '../domain/webhooks.js';
import { logger } from '../logger.js';
import { markEndpointFailing, markEndpointHealthy } from '../store/webhook-endpoint-health.js';
import { changeEndpointStatus, writeWebhookEvent } from '../store/webhook-endpoints.js';

export type { HealthSettings };

/** Updates the endpoint's health after an attempt that started at `startedAt` and ended at `endedAt`. */
export async function recordEndpointHealth(
  endpoint: WebhookEndpointRecord,
  health: EndpointHealth,
  outcome: Outcome,
  startedAt: Date,
  endedAt: Date,
  settings: HealthSettings,
): Promise<void> {
  if (outcome.status === 'succeeded') {
    if (health.failing_since) await markEndpointHealthy(endpoint.id, health.failing_since);
    return;
  }
  if (outcome.disableEndpoint) return disableEndpoint(endpoint, 'gone', endedAt);
  if (!health.failing_since) return markEndpointFailing(endpoint.id, startedAt.toISOString());
  if (failingTooLong(health, endedAt, settings)) return disableEndpoint(endpoint, 'failing', endedAt);
}

async function disableEndpoint(endpoint: WebhookEndpointRecord, reason: DisabledReason, when: Date): Promise<void> {
  const at = when.toISOString();
  const changed = await changeEndpointStatus(
    endpoint,
    'disabled',
    { disabled_at: at, disabled_reason: reason, updated_at: at },
    { event: endpointDisabledEvent(endpoint, reason, at) },
  );
  if (changed.ok) logger.info('webhook endpoint disabled', { webhook_endpoint_id: endpoint.id, reason });
}

/** A delivery that failed after its last attempt tells the workspace's other endpoints (once per exhaustion). */
export async function reportExhausted(completed: DeliveryRecord, outcome: Outcome, at: Date): Promise<void> {
  if (outcome.status !== 'failed' || !outcome.exhausted || isOperationalEvent(completed.event_type)) return;
  const eventId = deliveryIdFor(completed.id, `exhausted#${completed.attempt_count}`);
  await writeWebhookEvent(deliveryExhaustedEvent(completed, eventId, at.toISOString()));
}
