/**
 * What the sender needs for one attempt: the delivery, its endpoint (URL and secrets at send time)
 * and the endpoint's health, and its event (the body), read together in one strongly consistent
 * BatchGetItem: the queue message names them all.
 */
import type { EndpointHealth } from '../domain/endpoint-health.js';
import type { OutboxEvent } from '../domain/events.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../domain/webhooks.js';
import type { DeliveryMessage } from '../ports/delivery-queue.js';
import { batchGet, keyId } from './batch.js';
import { entities } from './entities.js';
import { recordOrUndefined } from './items.js';
import { keys } from './keys.js';
import { endpointHealthKey, endpointHealthOf } from './webhook-endpoint-health.js';

export interface DeliveryContext {
  delivery: DeliveryRecord | undefined;
  endpoint: WebhookEndpointRecord | undefined;
  health: EndpointHealth;
  /** Undefined when the event item is gone. */
  event: OutboxEvent | undefined;
}

export async function loadDeliveryContext(message: DeliveryMessage): Promise<DeliveryContext> {
  const deliveryKey = keys.webhookDelivery(message.delivery_id);
  const endpointKey = keys.webhookEndpoint(message.webhook_endpoint_id);
  const eventKey = keys.event(message.webhook_event_id);
  const healthKey = endpointHealthKey(message.webhook_endpoint_id);
  const found = await batchGet([deliveryKey, endpointKey, healthKey, eventKey], { consistent: true });
  return {
    delivery: recordOrUndefined(entities.webhookDelivery, found.get(keyId(deliveryKey))),
    endpoint: recordOrUndefined(entities.webhookEndpoint, found.get(keyId(endpointKey))),
    health: endpointHealthOf(found.get(keyId(healthKey))),
    event: recordOrUndefined(entities.event, found.get(keyId(eventKey))),
  };
}
