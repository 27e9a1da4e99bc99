/**
 * Endpoint health beyond 410: when to disable an endpoint whose attempts all fail, and the
 * operational events the workspace's other endpoints can select. Pure logic.
 */
import type { OutboxEvent } from './events.js';
import { newId } from './ids.js';
import type { DeliveryRecord, DisabledReason, WebhookEndpointRecord } from './webhooks.js';

/**
 * An endpoint's health: the first failed attempt since the last successful one (null while
 * healthy). Kept apart from the endpoint's own record (store/webhook-endpoint-health.ts): it moves
 * with attempts, the endpoint with its owner's changes.
 */
export interface EndpointHealth {
  failing_since: string | null;
}

export interface HealthSettings {
  /** Every attempt failed for at least this long (default 5 days). */
  disableAfterMs: number;
  /** ... and the failed attempts are at least this far apart (default 12 h). */
  minFailureSpreadMs: number;
}

/**
 * Whether a failed attempt at `now` disables the endpoint. `failing_since` is the first failed
 * attempt since the last success, so the streak's failures span at least `now - failing_since`:
 * both the period and the spread must be reached (the spread is a floor that keeps a short
 * configured period from disabling an endpoint on one burst of failures).
 */
export function failingTooLong(health: EndpointHealth, now: Date, settings: HealthSettings): boolean {
  if (!health.failing_since) return false;
  const streak = now.getTime() - Date.parse(health.failing_since);
  return streak >= settings.disableAfterMs && streak >= settings.minFailureSpreadMs;
}

/** What receivers of the operational events learn about an endpoint (no secret, no profiles). */
const endpointSummary = (e: WebhookEndpointRecord) => ({
  id: e.id,
  name: e.name,
  url: e.url,
  status: e.status,
  disabled_at: e.disabled_at,
  disabled_reason: e.disabled_reason,
});

/** `webhook_endpoint.disabled`, written in the same transaction as the disable. */
export function endpointDisabledEvent(
  disabled: WebhookEndpointRecord,
  reason: DisabledReason,
  at: string,
): OutboxEvent & { webhook_endpoint_id: string } {
  return {
    id: newId(),
    type: 'webhook_endpoint.disabled',
    profile_id: null,
    workspace_id: disabled.workspace_id,
    webhook_endpoint_id: disabled.id,
    created_at: at,
    data: {
      webhook_endpoint: endpointSummary({ ...disabled, status: 'disabled', disabled_at: at, disabled_reason: reason }),
    },
  };
}

/**
 * `webhook_delivery.exhausted`. Its id is derived from the delivery's, so writing it twice (a
 * replayed sender message) makes one event. Deliveries of operational events never produce one:
 * two failing endpoints would otherwise keep telling each other about their failures.
 */
export function deliveryExhaustedEvent(
  delivery: DeliveryRecord,
  eventId: string,
  at: string,
): OutboxEvent & { webhook_endpoint_id: string } {
  return {
    id: eventId,
    type: 'webhook_delivery.exhausted',
    profile_id: null,
    workspace_id: delivery.workspace_id,
    webhook_endpoint_id: delivery.webhook_endpoint_id,
    created_at: at,
    data: {
      webhook_delivery: {
        id: delivery.id,
        webhook_event_id: delivery.webhook_event_id,
        webhook_endpoint_id: delivery.webhook_endpoint_id,
        event_type: delivery.event_type,
        profile_id: delivery.profile_id,
        attempt_count: delivery.attempt_count,
        last_status_code: delivery.last_status_code,
        last_error: delivery.last_error,
      },
    },
  };
}
