/**
 * The prepare stage: the delivery, its endpoint (URL and secrets at send time) and the endpoint's
 * health, and its event (the body), one read; a stale claim of a sender that died is taken over. A message that may not make
 * the attempt ends here: `done` with its result (the delivery missing, a duplicate or stale
 * message, or an endpoint gone, disabled or revoked or an event gone: the delivery then ends as
 * failed unsent). Else `ready`.
 */
import type { EndpointHealth } from '../domain/endpoint-health.js';
import { staleClaimMs, type WebhookEndpointRecord } from '../domain/webhooks.js';
import { logger } from '../logger.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import type { StoredDelivery } from '../store/entities.js';
import { loadDeliveryContext } from '../store/webhook-delivery-context.js';
import { abandonDelivery, releaseClaim } from '../store/webhook-deliveries.js';
import type { AttemptClock } from './attempt-clock.js';
import { webhookBody } from './body.js';
import type { DeliverResult, DeliverySettings } from './delivery-types.js';

export type Prepared =
  | { tag: 'done'; result: DeliverResult }
  | { tag: 'ready'; delivery: StoredDelivery; endpoint: WebhookEndpointRecord; health: EndpointHealth; body: string };

export async function prepareAttempt(
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'metrics'>,
  settings: Pick<DeliverySettings, 'timeoutMs'>,
  clock: AttemptClock,
): Promise<Prepared> {
  const { delivery: stored, endpoint, health, event } = await loadDeliveryContext(message);
  if (!stored) return { tag: 'done', result: 'not_found' };
  const delivery = await takeOverStaleClaim(stored, message, settings, clock);
  // A duplicate or stale message claims nothing: it takes no lease either.
  if (!delivery || delivery.status !== 'pending' || delivery.attempt_count !== message.attempt - 1)
    return { tag: 'done', result: 'not_claimed' };
  if (endpoint?.status !== 'active')
    return abandon(delivery, message, `endpoint ${endpoint?.status ?? 'deleted'}: not sent`, ports, clock);
  // The event item outlives every delivery that can still be attempted; this is a safety net.
  if (!event) return abandon(delivery, message, 'event no longer stored: not sent', ports, clock);
  return { tag: 'ready', delivery, endpoint, health, body: webhookBody(event) };
}

/**
 * A message handed over again for an attempt whose claim went stale: its sender died mid-attempt
 * (on SQS, the message comes back after its visibility timeout, longer than a claim lasts). The
 * claim is released (which also puts the delivery in the sweeper's index) and the attempt is made
 * again, as the sweeper would have done. Any other delivery is returned as it is.
 */
async function takeOverStaleClaim(
  found: StoredDelivery,
  message: DeliveryMessage,
  settings: Pick<DeliverySettings, 'timeoutMs'>,
  clock: AttemptClock,
): Promise<StoredDelivery | undefined> {
  const stale =
    found.status === 'delivering' &&
    found.claimed_attempt === message.attempt &&
    found.claimed_at !== null &&
    Date.parse(found.claimed_at) + staleClaimMs(settings.timeoutMs) <= clock.now.getTime();
  if (!stale) return found;
  const at = clock.now.toISOString();
  if (!(await releaseClaim(found, at))) return undefined;
  logger.info('webhook claim of a sender that died taken over', { delivery_id: found.id, attempt: message.attempt });
  return { ...found, status: 'pending', next_attempt_at: at, claimed_attempt: null, claimed_at: null, updated_at: at };
}

/** The endpoint is gone, disabled or revoked (or the event is gone): the delivery ends as failed without an attempt. */
async function abandon(
  delivery: StoredDelivery,
  message: DeliveryMessage,
  reason: string,
  ports: Pick<DeliveryPorts, 'metrics'>,
  clock: AttemptClock,
): Promise<Prepared> {
  if (!(await abandonDelivery(delivery, message.attempt, reason, clock.now.toISOString())))
    return { tag: 'done', result: 'not_claimed' };
  ports.metrics?.abandoned();
  return { tag: 'done', result: 'abandoned' };
}
