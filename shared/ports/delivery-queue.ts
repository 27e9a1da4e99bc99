/** DeliveryQueue port: puts `{ delivery_id, attempt }` on the deliveries queue, optionally delayed. */
export interface DeliveryMessage {
  delivery_id: string;
  /** The attempt number this message is for; the sender's claim is guarded by it. */
  attempt: number;
}

/** SQS's largest DelaySeconds; later retries go through the RetryScheduler. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export interface DeliveryQueue {
  enqueue(message: DeliveryMessage, delaySeconds?: number): Promise<void>;
}
