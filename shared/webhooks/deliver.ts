/**
 * The sender's work for one queue message: claim, load the endpoint's current URL and secrets,
 * sign, POST, record the attempt and the outcome (with the totals) in one transaction, and
 * schedule the next attempt per the retry schedule.
 */
import type { UrlPolicy } from '../config.js';
import { webhookHeaders } from '../domain/signing.js';
import { errorForStatus, outcomeOf, signingSecrets, staleClaimMs, type AttemptResult } from '../domain/webhooks.js';
import { logger } from '../logger.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import { dispatch, type DeliveryPorts } from '../ports/delivery-ports.js';
import { abandonDelivery, claimDelivery, completeAttempt, getDelivery } from '../store/webhook-deliveries.js';
import { getEndpoint, updateEndpointIf } from '../store/webhook-endpoints.js';

export type DeliverResult = 'not_found' | 'not_claimed' | 'abandoned' | 'succeeded' | 'failed' | 'pending' | 'lost_claim';

export interface DeliverySettings {
  /** Seconds before attempts 2..10. */
  retryDelays: readonly number[];
  /** The attempt's timeout; a claim goes stale after it (plus a margin). */
  timeoutMs: number;
  urlPolicy: UrlPolicy;
}

export async function deliver(message: DeliveryMessage, ports: DeliveryPorts, settings: DeliverySettings): Promise<DeliverResult> {
  const found = await getDelivery(message.delivery_id);
  if (!found) return 'not_found';
  const claimedAt = new Date();
  const staleAt = new Date(claimedAt.getTime() + staleClaimMs(settings.timeoutMs)).toISOString();
  if (!(await claimDelivery(found.id, found.workspace_id, message.attempt, claimedAt.toISOString(), staleAt))) return 'not_claimed';
  const delivery = (await getDelivery(found.id))!;

  const endpoint = await getEndpoint(delivery.webhook_endpoint_id);
  if (!endpoint || endpoint.status !== 'active') {
    const reason = `endpoint ${endpoint?.status ?? 'deleted'}: not sent`;
    await abandonDelivery(delivery, reason, new Date().toISOString());
    ports.metrics?.abandoned();
    return 'abandoned';
  }

  const startedAt = new Date();
  const headers = webhookHeaders(signingSecrets(endpoint, startedAt), delivery.id, startedAt, delivery.payload);
  const response = await ports.http.post(endpoint.url, headers, delivery.payload, {
    timeoutMs: settings.timeoutMs,
    policy: settings.urlPolicy,
  });
  const endedAt = new Date();
  const result: AttemptResult = { ...response, startedAt, endedAt };
  const outcome = outcomeOf(message.attempt, result, settings.retryDelays);
  const error = response.error ?? (response.statusCode === null ? null : errorForStatus(response.statusCode));

  if (outcome.disableEndpoint) {
    const at = endedAt.toISOString();
    await updateEndpointIf(endpoint.id, ['active'], { status: 'disabled', disabled_at: at, updated_at: at });
  }
  const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
  const recorded = await completeAttempt(
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
    { status: outcome.status, nextAttemptAt: next?.toISOString() ?? null, deliveredAt: outcome.status === 'succeeded' ? endedAt.toISOString() : null },
    new Date().toISOString(),
  );
  ports.metrics?.attempt({ outcome: outcome.status, durationMs: endedAt.getTime() - startedAt.getTime() });
  if (!recorded) {
    logger.warn('webhook attempt outcome not recorded: the claim was released meanwhile', { delivery_id: delivery.id, attempt: message.attempt });
    return 'lost_claim';
  }
  if (next) await dispatch(ports, { delivery_id: delivery.id, attempt: message.attempt + 1 }, next, endedAt);
  return outcome.status;
}
