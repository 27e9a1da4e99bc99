/**
 * The gate stage, which also claims the attempt. Fairness at the sender: before an attempt takes a
 * sender, it takes a lease on one of its endpoint's and its workspace's in-flight places, and (for
 * an endpoint with `rate_limit_per_second`) a send slot. When there is none, the attempt is
 * deferred on the queue, never dropped: a hanging receiver holds at most its endpoint's places, a
 * busy workspace at most its own, and the senders stay free for everyone else. The lease carries
 * the attempt's claim (written with the endpoint's place, store/webhook-send-slots.ts): a second
 * message for an attempt another sender is making finds it `taken`.
 */
import type { DeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import { deferDelivery } from '../store/webhook-delivery-deferral.js';
import {
  acquireSendLease,
  releaseSendLease,
  reserveSendSlot,
  type LeaseLimits,
  type SendLease,
} from '../store/webhook-send-slots.js';
import type { AttemptClock } from './attempt-clock.js';

export interface SendGateSettings {
  limits: LeaseLimits;
  /** How long a lease lasts if its sender dies (the claim's stale time). */
  leaseMs: number;
  /** The attempt timeout: a deferred attempt comes back after about a third of it (1..5 s). */
  timeoutMs: number;
}

/** The longest a sender waits in-process for its endpoint's next send slot; further away, the attempt is deferred. */
const MAX_PACING_WAIT_MS = 1000;

export type GateOutcome =
  | { tag: 'open'; lease: SendLease }
  | { tag: 'taken' }
  | { tag: 'deferred'; reason: 'endpoint in-flight limit' | 'workspace in-flight limit' | 'rate limit' };

const deferSeconds = (timeoutMs: number) => Math.min(5, Math.max(1, timeoutMs / 3000)) * (0.75 + Math.random() / 2);

/**
 * A lease on the endpoint's and the workspace's in-flight places and, for a rate-limited endpoint,
 * its next send slot (waited for when it is near): the gate is open. Else the attempt is deferred.
 */
export async function passSendGate(
  delivery: DeliveryRecord,
  endpoint: WebhookEndpointRecord,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'queue'>,
  settings: SendGateSettings,
  clock: AttemptClock,
): Promise<GateOutcome> {
  const leased = await acquireSendLease(
    delivery.workspace_id,
    endpoint.id,
    clock.now,
    new Date(clock.now.getTime() + settings.leaseMs),
    settings.limits,
    { deliveryId: delivery.id, attempt: message.attempt },
  );
  if (!leased.ok) {
    if (leased.full === 'claimed') return { tag: 'taken' };
    await defer(delivery, message, ports, clock, deferSeconds(settings.timeoutMs));
    return { tag: 'deferred', reason: `${leased.full} in-flight limit` };
  }
  const paced = await paceSend(endpoint, clock);
  if (!paced) return { tag: 'open', lease: leased.lease };
  // The endpoint's rate limit is booked further ahead than a sender should wait: come back then.
  await releaseSendLease(leased.lease);
  const seconds = Math.max(0.001, (paced.freeAt.getTime() - clock.later().getTime()) / 1000);
  await defer(delivery, message, ports, clock, seconds);
  return { tag: 'deferred', reason: 'rate limit' };
}

/**
 * For an endpoint with `rate_limit_per_second`: reserves its next send slot right before the POST
 * (so the spacing holds where the receiver sees it) and waits for it; `{ freeAt }` when the slot is
 * further away than MAX_PACING_WAIT_MS.
 */
async function paceSend(endpoint: WebhookEndpointRecord, clock: AttemptClock): Promise<{ freeAt: Date } | undefined> {
  if (!endpoint.rate_limit_per_second) return undefined;
  const now = clock.later();
  const slot = await reserveSendSlot(endpoint.id, now, 1000 / endpoint.rate_limit_per_second, MAX_PACING_WAIT_MS);
  if (!slot.ok) return { freeAt: slot.freeAt };
  const wait = slot.sendAt.getTime() - now.getTime();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  return undefined;
}

/** Back on the queue for later; a delivery claimed or finished meanwhile needs no message. */
async function defer(
  delivery: DeliveryRecord,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'queue'>,
  clock: AttemptClock,
  seconds: number,
): Promise<void> {
  if (await deferDelivery(delivery, new Date(clock.now.getTime() + seconds * 1000).toISOString()))
    await ports.queue.enqueue(message, seconds);
}

export { releaseSendLease };
