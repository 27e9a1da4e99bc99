/**
 * Fairness at the sender: before an attempt takes a sender, it takes a lease on one of its
 * endpoint's and its workspace's in-flight places, and (for an endpoint with
 * `rate_limit_per_second`) a send slot. When there is none, the attempt is deferred on the queue,
 * never dropped: a hanging receiver holds at most its endpoint's places, a busy workspace at most
 * its own, and the senders stay free for everyone else.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import { acquireSendLease, releaseSendLease, reserveSendSlot, type LeaseLimits, type SendLease } from '../store/webhook-send-slots.js';

export interface SendGateSettings {
  limits: LeaseLimits;
  /** How long a lease lasts if its sender dies (the claim's stale time). */
  leaseMs: number;
  /** The attempt timeout: a deferred attempt comes back after about a third of it (1..5 s). */
  timeoutMs: number;
}

/** The longest a sender waits in-process for its endpoint's next send slot; further away, the attempt is deferred. */
export const MAX_PACING_WAIT_MS = 1000;

export type GateOutcome = { open: true; lease: SendLease } | { open: false; reason: string };

const deferSeconds = (timeoutMs: number) => Math.min(5, Math.max(1, timeoutMs / 3000)) * (0.75 + Math.random() / 2);

export async function passSendGate(
  delivery: DeliveryRecord,
  endpoint: WebhookEndpointRecord,
  message: DeliveryMessage,
  ports: Pick<DeliveryPorts, 'queue'>,
  settings: SendGateSettings,
): Promise<GateOutcome> {
  const now = new Date();
  const leased = await acquireSendLease(delivery.workspace_id, endpoint.id, randomUUID(), now, new Date(now.getTime() + settings.leaseMs), settings.limits);
  if (!leased.ok) {
    await ports.queue.enqueue(message, deferSeconds(settings.timeoutMs));
    return { open: false, reason: `${leased.full} in-flight limit` };
  }
  if (endpoint.rate_limit_per_second) {
    const slot = await reserveSendSlot(endpoint.id, now, 1000 / endpoint.rate_limit_per_second, MAX_PACING_WAIT_MS);
    if (!slot.ok) {
      await releaseSendLease(leased.lease);
      await ports.queue.enqueue(message, Math.max(0.001, (slot.freeAt.getTime() - Date.now()) / 1000));
      return { open: false, reason: 'endpoint rate limit' };
    }
    const wait = slot.sendAt.getTime() - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  return { open: true, lease: leased.lease };
}

export { releaseSendLease };
