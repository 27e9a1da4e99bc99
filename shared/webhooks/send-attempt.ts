/**
 * The send stage: sign the body with the endpoint's secrets at send time and POST it. It never
 * fails: a timeout, a refused address or a network error is what the receiver "answered".
 */
import { webhookHeaders } from '../domain/signing.js';
import { errorForStatus, signingSecrets, type AttemptRecord, type WebhookEndpointRecord } from '../domain/webhooks.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import type { DeliveryRecord } from '../domain/webhooks.js';
import type { AttemptClock } from './attempt-clock.js';
import type { DeliverySettings } from './deliver.js';

export interface Sent {
  tag: 'sent';
  attempt: AttemptRecord;
  startedAt: Date;
  endedAt: Date;
}

export async function sendAttempt(
  delivery: DeliveryRecord,
  endpoint: WebhookEndpointRecord,
  body: string,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'http'>,
  settings: Pick<DeliverySettings, 'timeoutMs' | 'urlPolicy'>,
  clock: AttemptClock,
): Promise<Sent> {
  const startedAt = clock.later();
  const headers = webhookHeaders(signingSecrets(endpoint, startedAt), delivery.id, startedAt, body);
  const response = await ports.http.post(endpoint.url, headers, body, {
    timeoutMs: settings.timeoutMs,
    policy: settings.urlPolicy,
  });
  const endedAt = clock.later();
  return {
    tag: 'sent',
    startedAt,
    endedAt,
    attempt: {
      delivery_id: delivery.id,
      number: message.attempt,
      started_at: startedAt.toISOString(),
      duration_ms: endedAt.getTime() - startedAt.getTime(),
      status_code: response.statusCode,
      error: response.error ?? (response.statusCode === null ? null : errorForStatus(response.statusCode)),
      response_body: response.responseBody,
    },
  };
}
