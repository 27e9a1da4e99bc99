import type { ProfileRecord } from '../domain/entities.js';
import type { AttemptRecord, DeliveryRecord, WebhookEndpointRecord, WebhookTotals } from '../domain/webhooks.js';
import { successRate } from '../domain/webhooks.js';
import { present } from './present.js';

/** Webhook records → API shapes. Secrets never leave through these. */
export const presentWebhooks = {
  endpoint: (e: WebhookEndpointRecord, profiles: Map<string, ProfileRecord>) => ({
    id: e.id,
    name: e.name,
    url: e.url,
    event_types: e.event_types,
    profiles: e.profile_ids.flatMap((id) => {
      const profile = profiles.get(id);
      return profile ? [present.profile(profile)] : [];
    }),
    status: e.status,
    disabled_at: e.disabled_at,
    created_at: e.created_at,
    updated_at: e.updated_at,
  }),
  delivery: (d: DeliveryRecord, endpointName: string) => ({
    id: d.id,
    webhook_event_id: d.webhook_event_id,
    webhook_endpoint_id: d.webhook_endpoint_id,
    webhook_endpoint_name: endpointName,
    event_type: d.event_type,
    profile_id: d.profile_id,
    status: d.status,
    attempt_count: d.attempt_count,
    last_status_code: d.last_status_code ?? null,
    last_error: d.last_error ?? null,
    next_attempt_at: d.status === 'pending' ? (d.next_attempt_at ?? null) : null,
    delivered_at: d.delivered_at ?? null,
    created_at: d.created_at,
    updated_at: d.updated_at,
  }),
  attempt: (a: AttemptRecord) => ({
    number: a.number,
    started_at: a.started_at,
    duration_ms: a.duration_ms,
    status_code: a.status_code,
    error: a.error,
    response_body: a.response_body,
  }),
  totals: (t: WebhookTotals) => ({ ...t, success_rate: successRate(t) }),
};
