/**
 * What the sender needs for one attempt: the delivery, its endpoint (URL and secrets at send time)
 * and its event (the body), read together in one strongly consistent BatchGetItem: the queue
 * message names all three.
 */
import type { OutboxEvent } from '../domain/events.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import { batchGet, keyId } from './batch.js';
import { entities } from './entities.js';
import { recordOrUndefined } from './items.js';
import { keys } from './keys.js';

export interface DeliveryContext {
  delivery: DeliveryRecord | undefined;
  endpoint: WebhookEndpointRecord | undefined;
  /** Undefined when the event item is gone. */
  event: OutboxEvent | undefined;
}

export async function loadDeliveryContext(message: DeliveryMessage): Promise<DeliveryContext> {
  const deliveryKey = keys.webhookDelivery(message.delivery_id);
  const endpointKey = keys.webhookEndpoint(message.webhook_endpoint_id);
  const eventKey = keys.event(message.webhook_event_id);
  const found = await batchGet([deliveryKey, endpointKey, eventKey], { consistent: true });
  return {
    delivery: recordOrUndefined(entities.webhookDelivery, found.get(keyId(deliveryKey))),
    endpoint: recordOrUndefined(entities.webhookEndpoint, found.get(keyId(endpointKey))),
    event: recordOrUndefined(entities.event, found.get(keyId(eventKey))),
  };
}
