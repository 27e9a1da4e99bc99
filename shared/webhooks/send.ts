/**
 * The send stage: sign the body with the endpoint's secrets at send time and POST it. It never
 * fails: a timeout, a refused address or a network error is what the receiver "answered". An
 * attempt that lasts marks its delivery `delivering` meanwhile (see `markWhileLong`).
 */
import { webhookHeaders } from '../domain/signing.js';
import { errorForStatus, signingSecrets, type WebhookEndpointRecord } from '../domain/webhooks.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import type { StoredDelivery } from '../store/entities.js';
import { claimDelivery } from '../store/webhook-deliveries.js';
import type { AttemptClock } from './attempt-clock.js';
import type { DeliverySettings, Sent } from './delivery-types.js';

/**
 * An attempt that outlasts this is marked `delivering` on the delivery: shorter ones (most) show
 * as pending until their outcome, and cost no write of the delivery for their claim.
 */
const DELIVERING_MARK_MS = 1000;

/** What the POST answered, and the delivery the outcome moves on from (marked delivering or not). */
export async function sendAttempt(
  delivery: StoredDelivery,
  endpoint: WebhookEndpointRecord,
  body: string,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'http'>,
  settings: Pick<DeliverySettings, 'timeoutMs' | 'urlPolicy'>,
  clock: AttemptClock,
): Promise<{ sent: Sent; delivery: StoredDelivery }> {
  const mark = markWhileLong(delivery, message, clock);
  const startedAt = clock.later();
  const headers = webhookHeaders(signingSecrets(endpoint, startedAt), delivery.id, startedAt, body);
  const response = await ports.http.post(endpoint.url, headers, body, {
    timeoutMs: settings.timeoutMs,
    policy: settings.urlPolicy,
  });
  const endedAt = clock.later();
  const sent: Sent = {
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
  return { sent, delivery: await mark.settle() };
}

/**
 * The attempt is claimed with its lease (the gate's writes); the delivery itself is marked
 * delivering only once the attempt has lasted DELIVERING_MARK_MS, so the activity and the totals
 * show an attempt in flight and the sweeper can tell when its sender died. `settle` (after the
 * POST) cancels a mark not yet made and returns the delivery the outcome moves on from.
 */
function markWhileLong(
  delivery: StoredDelivery,
  message: DeliveryMessage,
  clock: AttemptClock,
): { settle(): Promise<StoredDelivery> } {
  let marking: Promise<StoredDelivery> | undefined;
  const timer = setTimeout(() => {
    marking = claimDelivery(delivery, message.attempt, clock.now.toISOString()).then(
      (marked) => marked ?? delivery,
      () => delivery,
    );
  }, DELIVERING_MARK_MS);
  return {
    settle: () => {
      clearTimeout(timer);
      return marking ?? Promise.resolve(delivery);
    },
  };
}
