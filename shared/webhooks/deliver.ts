/**
 * The sender's work for one queue message: load the delivery, the endpoint's current URL and
 * secrets and the event (the body) in one round trip, pass the send gate (in-flight leases, rate
 * limit; else deferred), claim, sign, POST, record the attempt and the outcome, and schedule the
 * next attempt per the retry schedule.
 */
import type { UrlPolicy } from '../config.js';
import { webhookHeaders } from '../domain/signing.js';
import {
  errorForStatus,
  outcomeOf,
  signingSecrets,
  staleClaimMs,
  type AttemptResult,
  type DeliveryRecord,
  type WebhookEndpointRecord,
} from '../domain/webhooks.js';
import { logger } from '../logger.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import { dispatch, type DeliveryPorts } from '../ports/delivery-ports.js';
import { deliveryMessage } from '../ports/delivery-queue.js';
import { loadDeliveryContext } from '../store/webhook-delivery-context.js';
import { abandonDelivery, claimDelivery, completeAttempt, releaseClaim } from '../store/webhook-deliveries.js';
import type { LeaseLimits } from '../store/webhook-send-slots.js';
import { webhookBody } from './body.js';
import { recordEndpointHealth, reportExhausted, type HealthSettings } from './endpoint-health.js';
import { deferUntil, paceSend, passSendGate, releaseSendLease } from './send-gate.js';

export type DeliverResult =
  'not_found' | 'not_claimed' | 'deferred' | 'abandoned' | 'succeeded' | 'failed' | 'pending' | 'lost_claim';

export interface DeliverySettings {
  /** Seconds before attempts 2..10. */
  retryDelays: readonly number[];
  /** The attempt's timeout; a claim goes stale after it (plus a margin). */
  timeoutMs: number;
  urlPolicy: UrlPolicy;
  /** Attempts in flight at once per endpoint and per workspace; more are deferred. */
  inFlight: LeaseLimits;
  health: HealthSettings;
}

export async function deliver(
  message: DeliveryMessage,
  ports: DeliveryPorts,
  settings: DeliverySettings,
): Promise<DeliverResult> {
  const { delivery: loaded, endpoint: current, event } = await loadDeliveryContext(message);
  if (!loaded) return 'not_found';
  const found = await takeOverStaleClaim(loaded, message, settings);
  if (!found) return 'not_claimed';
  // A duplicate or stale message would claim nothing: it takes no lease either.
  if (found.status !== 'pending' || found.attempt_count !== message.attempt - 1) return 'not_claimed';
  if (current?.status !== 'active')
    return abandon(found, message, `endpoint ${current?.status ?? 'deleted'}: not sent`, ports);
  // The event item outlives every delivery that can still be attempted; this is a safety net.
  if (!event) return abandon(found, message, 'event no longer stored: not sent', ports);
  const body = webhookBody(event);

  const gate = await passSendGate(found, current, message, ports, {
    limits: settings.inFlight,
    leaseMs: staleClaimMs(settings.timeoutMs),
    timeoutMs: settings.timeoutMs,
  });
  if (!gate.open) return 'deferred';
  // The lease holds a place among the POSTs in flight to the receiver: it is given back as soon as
  // the receiver has answered, beside the attempt's recording rather than after it (one round trip
  // less per attempt), or at the end when the attempt never got as far as the POST.
  let released: Promise<void> | undefined;
  const releaseLease = () => {
    if (!released) {
      released = releaseSendLease(gate.lease);
      // Awaited later (with the outcome, or below); until then a failure must not go unhandled.
      released.catch(() => undefined);
    }
    return released;
  };
  try {
    return await attempt(found, current, body, message, ports, settings, releaseLease);
  } finally {
    await releaseLease();
  }
}

/**
 * A message handed over again for an attempt whose claim went stale: its sender died mid-attempt
 * (on SQS, the message comes back after its visibility timeout, longer than a claim lasts). The
 * claim is released (which also puts the delivery in the sweeper's index) and the attempt is made
 * again, as the sweeper would have done. Any other delivery is returned as it is.
 */
async function takeOverStaleClaim(
  found: DeliveryRecord,
  message: DeliveryMessage,
  settings: DeliverySettings,
): Promise<DeliveryRecord | undefined> {
  const now = new Date();
  const stale =
    found.status === 'delivering' &&
    found.claimed_attempt === message.attempt &&
    found.claimed_at !== null &&
    Date.parse(found.claimed_at) + staleClaimMs(settings.timeoutMs) <= now.getTime();
  if (!stale) return found;
  const at = now.toISOString();
  if (!(await releaseClaim(found, at))) return undefined;
  logger.info('webhook claim of a sender that died taken over', { delivery_id: found.id, attempt: message.attempt });
  return { ...found, status: 'pending', next_attempt_at: at, claimed_attempt: null, claimed_at: null, updated_at: at };
}

/** The endpoint is gone, disabled or revoked (or the event is gone): the delivery ends as failed without an attempt. */
async function abandon(
  found: DeliveryRecord,
  message: DeliveryMessage,
  reason: string,
  ports: DeliveryPorts,
): Promise<DeliverResult> {
  const delivery = await claimDelivery(found, message.attempt, new Date().toISOString());
  if (!delivery) return 'not_claimed';
  await abandonDelivery(delivery, reason, new Date().toISOString());
  ports.metrics?.abandoned();
  return 'abandoned';
}

/** The endpoint as read just before the claim: its URL and secrets at send time. */
async function attempt(
  found: DeliveryRecord,
  endpoint: WebhookEndpointRecord,
  body: string,
  message: DeliveryMessage,
  ports: DeliveryPorts,
  settings: DeliverySettings,
  releaseLease: () => Promise<void>,
): Promise<DeliverResult> {
  const delivery = await claimDelivery(found, message.attempt, new Date().toISOString());
  if (!delivery) return 'not_claimed';

  const paced = await paceSend(endpoint);
  if (paced) {
    // The endpoint's rate limit is booked further ahead than a sender should wait: give the claim back, come back then.
    const at = new Date().toISOString();
    if (await releaseClaim(delivery, at))
      await deferUntil({ ...delivery, status: 'pending', updated_at: at }, message, ports, paced.freeAt);
    return 'deferred';
  }
  const startedAt = new Date();
  const headers = webhookHeaders(signingSecrets(endpoint, startedAt), delivery.id, startedAt, body);
  const response = await ports.http.post(endpoint.url, headers, body, {
    timeoutMs: settings.timeoutMs,
    policy: settings.urlPolicy,
  });
  const endedAt = new Date();
  const leaseReturned = releaseLease();
  const result: AttemptResult = { ...response, startedAt, endedAt };
  const outcome = outcomeOf(message.attempt, result, settings.retryDelays);
  const error = response.error ?? (response.statusCode === null ? null : errorForStatus(response.statusCode));

  await recordEndpointHealth(endpoint, outcome, startedAt, endedAt, settings.health);
  const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
  const [recorded] = await Promise.all([
    completeAttempt(
      delivery,
      {
        delivery_id: delivery.id,
        number: message.attempt,
        started_at: startedAt.toISOString(),
        duration_ms: endedAt.getTime() - startedAt.getTime(),
        status_code: response.statusCode,
        error,
        response_body: response.responseBody,
      },
      {
        status: outcome.status,
        nextAttemptAt: next?.toISOString() ?? null,
        deliveredAt: outcome.status === 'succeeded' ? endedAt.toISOString() : null,
      },
      new Date().toISOString(),
    ),
    leaseReturned,
  ]);
  ports.metrics?.attempt({ outcome: outcome.status, durationMs: endedAt.getTime() - startedAt.getTime() });
  if (!recorded) {
    logger.warn('webhook attempt outcome not recorded: the claim was released meanwhile', {
      delivery_id: delivery.id,
      attempt: message.attempt,
    });
    return 'lost_claim';
  }
  if (next) await dispatch(ports, deliveryMessage(delivery, message.attempt + 1), next, endedAt);
  await reportExhausted(
    { ...delivery, attempt_count: message.attempt, last_status_code: response.statusCode, last_error: error },
    outcome,
    endedAt,
  );
  return outcome.status;
}
