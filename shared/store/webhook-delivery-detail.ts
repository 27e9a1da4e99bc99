/**
 * What the delivery detail shows beside the delivery and its attempts: its endpoint (for the
 * current name) and its event (the body every attempt sent), the same two items the sender reads.
 * Both through the request's read batch, so they go out in one BatchGetItem with any other key the
 * request asks for in the same tick.
 */
import type { OutboxEvent } from '../domain/events.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks.js';
import { entities } from './entities.js';
import { getItem } from './items.js';
import { keys } from './keys.js';
import type { ReadBatch } from './read-batch.js';

export interface DeliverySources {
  /** Undefined once the endpoint item is gone. */
  endpoint: WebhookEndpointRecord | undefined;
  /** Undefined once the event item has expired (DynamoDB TTL removed it). */
  event: OutboxEvent | undefined;
}

export async function getDeliverySources(
  delivery: Pick<DeliveryRecord, 'webhook_endpoint_id' | 'webhook_event_id'>,
  reads: ReadBatch,
): Promise<DeliverySources> {
  const [endpoint, event] = await Promise.all([
    getItem(entities.webhookEndpoint, keys.webhookEndpoint(delivery.webhook_endpoint_id), { reads }),
    getItem(entities.event, keys.event(delivery.webhook_event_id), { reads }),
  ]);
  return { endpoint, event };
}
