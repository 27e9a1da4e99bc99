/**
 * Fairness at the sender: before an attempt takes a sender, it takes a lease on one of its
 * endpoint's and its workspace's in-flight places, and (for an endpoint with
 * `rate_limit_per_second`) a send slot. When there is none, the attempt is deferred on the queue,
 * never dropped: a hanging receiver holds at most its endpoint's places, a busy workspace at most
 * its own, and the senders stay free for everyone else.
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

export interface SendGateSettings {
  limits: LeaseLimits;
  /** How long a lease lasts if its sender dies (the claim's stale time). */
  leaseMs: number;
  /** The attempt timeout: a deferred attempt comes back after about a third of it (1..5 s). */
  timeoutMs: number;
}

/** The longest a sender waits in-process for its endpoint's next send slot; further away, the attempt is deferred. */
const MAX_PACING_WAIT_MS = 1000;

export type GateOutcome = { open: true; lease: SendLease } | { open: false; reason: string };

const deferSeconds = (timeoutMs: number) => Math.min(5, Math.max(1, timeoutMs / 3000)) * (0.75 + Math.random() / 2);

/** The in-flight leases of the endpoint and the workspace, or the attempt deferred. */
export async function passSendGate(
  delivery: DeliveryRecord,
  endpoint: WebhookEndpointRecord,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'queue'>,
  settings: SendGateSettings,
): Promise<GateOutcome> {
  const now = new Date();
  const leased = await acquireSendLease(
    delivery.workspace_id,
    endpoint.id,
    now,
    new Date(now.getTime() + settings.leaseMs),
    settings.limits,
  );
  if (leased.ok) return { open: true, lease: leased.lease };
  await defer(delivery, message, ports, deferSeconds(settings.timeoutMs));
  return { open: false, reason: `${leased.full} in-flight limit` };
}

/**
 * For an endpoint with `rate_limit_per_second`: reserves its next send slot right before the POST
 * (so the spacing holds where the receiver sees it) and waits for it; `undefined` when the slot is
 * further away than MAX_PACING_WAIT_MS (the caller gives the attempt back and defers it to `freeAt`).
 */
export async function paceSend(endpoint: WebhookEndpointRecord): Promise<{ freeAt: Date } | undefined> {
  if (!endpoint.rate_limit_per_second) return undefined;
  const slot = await reserveSendSlot(
    endpoint.id,
    new Date(),
    1000 / endpoint.rate_limit_per_second,
    MAX_PACING_WAIT_MS,
  );
  if (!slot.ok) return { freeAt: slot.freeAt };
  const wait = slot.sendAt.getTime() - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  return undefined;
}

/** Defers a released attempt until `freeAt`. */
export async function deferUntil(
  delivery: DeliveryRecord,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'queue'>,
  freeAt: Date,
): Promise<void> {
  await defer(delivery, message, ports, Math.max(0.001, (freeAt.getTime() - Date.now()) / 1000));
}

/** Back on the queue for later; a delivery claimed or finished meanwhile needs no message. */
async function defer(
  delivery: DeliveryRecord,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'queue'>,
  seconds: number,
): Promise<void> {
  if (await deferDelivery(delivery, new Date(Date.now() + seconds * 1000).toISOString()))
    await ports.queue.enqueue(message, seconds);
}

export { releaseSendLease };
