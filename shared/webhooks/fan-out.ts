/**
 * Fan-out: an outbox event → one pending delivery per matching endpoint (created idempotently; the
 * totals count it from its stream record), then its first attempt's message on the deliveries queue.
 */
import { TEST_EVENT_TYPE } from '../domain/events.js';
import {
  deliveryIdFor,
  endpointMatches,
  type DeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookEvent,
} from '../domain/webhooks.js';
import type { DeliveryPorts } from '../ports/delivery-ports.js';
import { deliveryMessage } from '../ports/delivery-queue.js';
import { createDelivery } from '../store/webhook-deliveries.js';
import { getEndpoint, listWorkspaceEndpoints } from '../store/webhook-endpoints.js';
import { mapLimit } from '../pipeline/concurrency.js';
import { isSuspended } from '../domain/reports.js';
import { getProfile } from '../store/profiles.js';

export interface FanOutSettings {
  /** Delivery records written at once for one event (the workspace's endpoints are capped, this bounds the burst). */
  concurrency: number;
}

/** Candidate endpoints by key: the test event's target, or the workspace's endpoints (one query). */
async function candidates(event: WebhookEvent): Promise<WebhookEndpointRecord[]> {
  if (event.type === TEST_EVENT_TYPE) {
    const target = event.webhook_endpoint_id ? await getEndpoint(event.webhook_endpoint_id) : undefined;
    return target ? [target] : [];
  }
  return listWorkspaceEndpoints(event.workspace_id);
}

export function newDelivery(event: WebhookEvent, endpoint: WebhookEndpointRecord, now: string): DeliveryRecord {
  return {
    id: deliveryIdFor(event.id, endpoint.id),
    workspace_id: event.workspace_id,
    webhook_event_id: event.id,
    webhook_endpoint_id: endpoint.id,
    event_type: event.type,
    profile_id: event.profile_id,
    status: 'pending',
    attempt_count: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: now,
    delivered_at: null,
    created_at: now,
    updated_at: now,
    claimed_attempt: null,
    claimed_at: null,
  };
}

/** A suspended profile's endpoints stop matching: its events go nowhere (read only when some endpoint would match). */
async function profileSuspended(event: WebhookEvent): Promise<boolean> {
  return event.profile_id !== null && isSuspended(await getProfile(event.profile_id, { consistent: true }));
}

/** Returns the ids of the deliveries of this event (new or already there). */
export async function fanOut(
  event: WebhookEvent,
  ports: Pick<DeliveryPorts, 'queue'>,
  settings: FanOutSettings,
): Promise<string[]> {
  const matching = (await candidates(event)).filter((endpoint) => endpointMatches(endpoint, event));
  if (matching.length > 0 && (await profileSuspended(event))) return [];
  // One instant for the event's deliveries: created together, they sort together in the activity.
  const now = new Date().toISOString();
  const ids: string[] = [];
  await mapLimit(matching, settings.concurrency, async (endpoint) => {
    const delivery = newDelivery(event, endpoint, now);
    // On a durable queue the first attempt's message is not lost: no entry in the sweeper's index.
    await createDelivery(delivery, { dueEntry: !ports.queue.durable });
    // Also when it already existed: a redelivered stream record may mean the first enqueue was
    // lost; a duplicate message claims nothing.
    await ports.queue.enqueue(deliveryMessage(delivery, 1));
    ids.push(delivery.id);
  });
  return ids;
}
