import type { ProfileRecord } from '../../domain/entities.js';
import type { AttemptRecord, DeliveryRecord, WebhookEndpointRecord, WebhookTotals } from '../../domain/webhooks.js';
import { successRate } from '../../domain/webhooks.js';
import {
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookTotals as WebhookTotalsSchema,
} from '../contract/schemas/webhooks.js';
import { declared } from './declared.js';
import { presentProfile } from './profiles.js';

/** Webhook records → API shapes. The schemas declare no secret, so none leaves through these. */
export const presentWebhooks = {
  endpoint: (e: WebhookEndpointRecord, profiles: Map<string, ProfileRecord>) =>
    declared(WebhookEndpoint, {
      ...e,
      profiles: e.profile_ids.flatMap((id) => {
        const profile = profiles.get(id);
        return profile ? [presentProfile(profile)] : [];
      }),
    }),
  delivery: (d: DeliveryRecord, endpointName: string) =>
    declared(WebhookDelivery, {
      ...d,
      webhook_endpoint_name: endpointName,
      next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
    }),
  attempt: (a: AttemptRecord) => declared(WebhookAttempt, a),
  totals: (t: WebhookTotals) => declared(WebhookTotalsSchema, { ...t, success_rate: successRate(t) }),
};
