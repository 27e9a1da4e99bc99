/**
 * The sender's work for one queue message, as stages that each return a tagged outcome:
 *
 *   load → gate → claim → send → record → schedule
 *
 * - load: the delivery, its endpoint (URL and secrets at send time) and its event (the body), one
 *   read; a stale claim of a sender that died is taken over. `missing` | `stale_message` |
 *   `unsendable` (endpoint gone, disabled or revoked, or event gone: the delivery ends as failed
 *   unsent) | `ready`.
 * - gate: in-flight leases and the endpoint's rate limit (send-gate.ts). `open` | `deferred`.
 * - claim: pending → delivering for this attempt. `claimed` | `taken` (a duplicate message).
 * - send: sign and POST (send-attempt.ts). Always `sent`, with what the receiver answered.
 * - record: the endpoint's health, then the attempt and its outcome in one conditional write
 *   (record-attempt.ts). `recorded` | `lost_claim`.
 * - schedule: the next attempt's message, or the exhaustion event (record-attempt.ts).
 *
 * The wall clock is read once per attempt (attempt-clock.ts) and handed to every stage.
 */
import type { UrlPolicy } from '../config.js';
import { staleClaimMs, type WebhookEndpointRecord } from '../domain/webhooks.js';
import { logger } from '../logger.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import type { StoredDelivery } from '../store/entities.js';
import { loadDeliveryContext } from '../store/webhook-delivery-context.js';
import { abandonDelivery, claimDelivery, releaseClaim } from '../store/webhook-deliveries.js';
import type { LeaseLimits } from '../store/webhook-send-slots.js';
import { attemptClock, type AttemptClock } from './attempt-clock.js';
import { webhookBody } from './body.js';
import type { HealthSettings } from './endpoint-health.js';
import { recordAttempt, scheduleNext } from './record-attempt.js';
import { sendAttempt } from './send-attempt.js';
import { passSendGate, releaseSendLease } from './send-gate.js';

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

export type Loaded =
  | { tag: 'missing' }
  | { tag: 'stale_message' }
  | { tag: 'unsendable'; delivery: StoredDelivery; reason: string }
  | { tag: 'ready'; delivery: StoredDelivery; endpoint: WebhookEndpointRecord; body: string };

export async function deliver(
  message: DeliveryMessage,
  ports: DeliveryPorts,
  settings: DeliverySettings,
  clock: AttemptClock = attemptClock(),
): Promise<DeliverResult> {
  const loaded = await load(message, settings, clock);
  if (loaded.tag === 'missing') return 'not_found';
  if (loaded.tag === 'stale_message') return 'not_claimed';
  if (loaded.tag === 'unsendable') return abandon(loaded.delivery, message, loaded.reason, ports, clock);

  const gate = await passSendGate(loaded.delivery, loaded.endpoint, message, ports, gateSettings(settings), clock);
  if (gate.tag === 'taken') return 'not_claimed';
  if (gate.tag === 'deferred') return 'deferred';
  // The lease holds a place among the POSTs in flight to the receiver and the attempt's claim: it is
  // given back once the outcome is recorded (a duplicate message then finds the attempt made), before
  // the next attempt is scheduled, or at the end when the attempt fails on the way.
  let released: Promise<void> | undefined;
  const releaseLease = () => (released ??= releaseSendLease(gate.lease));
  try {
    const mark = claim(loaded.delivery, message, clock);
    const sent = await sendAttempt(loaded.delivery, loaded.endpoint, loaded.body, message, ports, settings, clock);
    const claimed = await mark.settle();
    const recorded = await recordAttempt(claimed, loaded.endpoint, sent, settings, ports);
    await releaseLease();
    if (recorded.tag === 'lost_claim') return 'lost_claim';
    await scheduleNext(claimed, recorded, message, ports);
    return recorded.outcome.status;
  } finally {
    await releaseLease();
  }
}

const gateSettings = (settings: DeliverySettings) => ({
  limits: settings.inFlight,
  leaseMs: staleClaimMs(settings.timeoutMs),
  timeoutMs: settings.timeoutMs,
});

/** The load stage: what the attempt needs, and whether this message may make it. */
export async function load(message: DeliveryMessage, settings: DeliverySettings, clock: AttemptClock): Promise<Loaded> {
  const { delivery: stored, endpoint, event } = await loadDeliveryContext(message);
  if (!stored) return { tag: 'missing' };
  const delivery = await takeOverStaleClaim(stored, message, settings, clock);
  // A duplicate or stale message claims nothing: it takes no lease either.
  if (!delivery || delivery.status !== 'pending' || delivery.attempt_count !== message.attempt - 1)
    return { tag: 'stale_message' };
  if (endpoint?.status !== 'active')
    return { tag: 'unsendable', delivery, reason: `endpoint ${endpoint?.status ?? 'deleted'}: not sent` };
  // The event item outlives every delivery that can still be attempted; this is a safety net.
  if (!event) return { tag: 'unsendable', delivery, reason: 'event no longer stored: not sent' };
  return { tag: 'ready', delivery, endpoint, body: webhookBody(event) };
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
  settings: DeliverySettings,
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

/**
 * An attempt that outlasts this is marked `delivering` on the delivery: shorter ones (most) show
 * as pending until their outcome, and cost no write of the delivery for their claim.
 */
export const DELIVERING_MARK_MS = 1000;

/**
 * The claim stage. The attempt is claimed with its lease (the gate's one write); the delivery
 * itself is marked delivering only once the attempt has lasted DELIVERING_MARK_MS, so the activity
 * and the totals show an attempt in flight and the sweeper can tell when its sender died. `settle`
 * (after the POST) cancels a mark not yet made and returns the delivery the outcome moves on from.
 */
export function claim(
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

/** The endpoint is gone, disabled or revoked (or the event is gone): the delivery ends as failed without an attempt. */
async function abandon(
  delivery: StoredDelivery,
  message: DeliveryMessage,
  reason: string,
  ports: DeliveryPorts,
  clock: AttemptClock,
): Promise<DeliverResult> {
  if (!(await abandonDelivery(delivery, message.attempt, reason, clock.now.toISOString()))) return 'not_claimed';
  ports.metrics?.abandoned();
  return 'abandoned';
}
