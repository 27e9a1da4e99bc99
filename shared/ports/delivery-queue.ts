/** DeliveryQueue port: puts `{ delivery_id, attempt, webhook_event_id, webhook_endpoint_id }` on the deliveries queue, optionally delayed. */
import * as z from 'zod/mini';

/** A message on the deliveries queue; what the sender reads off the wire is checked against it. */
export const DeliveryMessage = z.object({
  delivery_id: z.string(),
  /** The attempt number this message is for; the sender's claim is guarded by it. */
  attempt: z.int().check(z.positive()),
  /** The delivery's event and endpoint, so the sender reads all three items in one BatchGetItem. */
  webhook_event_id: z.string(),
  webhook_endpoint_id: z.string(),
});
export type DeliveryMessage = z.infer<typeof DeliveryMessage>;

/** The message for attempt `attempt` of a delivery. */
export const deliveryMessage = (
  delivery: { id: string; webhook_event_id: string; webhook_endpoint_id: string },
  attempt: number,
): DeliveryMessage => ({
  delivery_id: delivery.id,
  attempt,
  webhook_event_id: delivery.webhook_event_id,
  webhook_endpoint_id: delivery.webhook_endpoint_id,
});

/** The message body on the wire (SQS, a schedule's input): the known fields only, in a fixed order. */
export const messageBody = (message: DeliveryMessage): string =>
  JSON.stringify({
    delivery_id: message.delivery_id,
    attempt: message.attempt,
    webhook_event_id: message.webhook_event_id,
    webhook_endpoint_id: message.webhook_endpoint_id,
  });

/** SQS's largest DelaySeconds; later retries go through the RetryScheduler. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export interface DeliveryQueue {
  enqueue(message: DeliveryMessage, delaySeconds?: number): Promise<void>;
  /**
   * True when an enqueued message is handed over again until a sender has handled it, even across
   * a sender that died mid-attempt (SQS). A first attempt on such a queue needs no entry in the
   * sweeper's due index; on an in-memory queue (the local runtime) it does: a restart loses it.
   */
  readonly durable?: boolean;
}
