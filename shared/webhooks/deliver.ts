/**
 * The sender's work for one queue message: the stages, each in a file of its own and each
 * returning a tagged outcome, composed:
 *
 *   prepare → gate → send → complete (record, then schedule)
 *
 * - prepare (prepare.ts): the delivery, its endpoint and its event, one read; a stale claim taken
 *   over; a message that may not make the attempt ends here. `done` | `ready`.
 * - gate (send-gate.ts): in-flight leases, the attempt's claim and the endpoint's rate limit.
 *   `open` | `taken` (a duplicate message) | `deferred`.
 * - send (send.ts): sign and POST. Always `sent`, with what the receiver answered.
 * - complete (complete.ts): the endpoint's health, then the attempt and its outcome in one
 *   conditional write (`recorded` | `lost_claim`); then the next attempt's message, or the
 *   exhaustion event.
 *
 * The types the stages share are in delivery-types.ts. The wall clock is read once per attempt
 * (attempt-clock.ts) and handed to every stage.
 */
import { staleClaimMs } from '../domain/webhooks.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import { attemptClock, type AttemptClock } from './attempt-clock.js';
import { recordAttempt, scheduleNext } from './complete.js';
import type { DeliverResult, DeliverySettings } from './delivery-types.js';
import { prepareAttempt } from './prepare.js';
import { sendAttempt } from './send.js';
import { passSendGate, releaseSendLease } from './send-gate.js';

export type { DeliverResult, DeliverySettings };

export async function deliver(
  message: DeliveryMessage,
  ports: DeliveryPorts,
  settings: DeliverySettings,
  clock: AttemptClock = attemptClock(),
): Promise<DeliverResult> {
  const prepared = await prepareAttempt(message, ports, settings, clock);
  if (prepared.tag === 'done') return prepared.result;
  const { delivery, endpoint, health, body } = prepared;

  const gate = await passSendGate(delivery, endpoint, message, ports, gateSettings(settings), clock);
  if (gate.tag === 'taken') return 'not_claimed';
  if (gate.tag === 'deferred') return 'deferred';
  // The lease holds a place among the POSTs in flight to the receiver and the attempt's claim: it is
  // given back once the outcome is recorded (a duplicate message then finds the attempt made), before
  // the next attempt is scheduled, or at the end when the attempt fails on the way.
  let released: Promise<void> | undefined;
  const releaseLease = () => (released ??= releaseSendLease(gate.lease));
  try {
    const { sent, delivery: claimed } = await sendAttempt(delivery, endpoint, body, message, ports, settings, clock);
    const recorded = await recordAttempt(claimed, endpoint, health, sent, settings, ports);
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
