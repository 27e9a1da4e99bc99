/**
 * An endpoint's health (its failure streak) on an item of its own, beside the endpoint's: the
 * endpoint item is on the workspace's endpoint index, so each write of it is billed twice, while
 * the health moves with attempts (a streak starts at a failure and ends at the next success). Read
 * with the attempt's delivery, endpoint and event (store/webhook-delivery-context.ts).
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { EndpointHealth } from '../domain/endpoint-health.js';
import { db, tableName } from './client.js';
import { conditionHeld } from './conditional.js';
import { when, type Condition } from './expressions.js';
import { entityTags, keys } from './keys.js';
import { sendUpdate } from './update.js';

export const endpointHealthKey = keys.webhookEndpointHealth;

/** The health an item holds (none: healthy). */
export const endpointHealthOf = (item: Record<string, unknown> | undefined): EndpointHealth => ({
  failing_since: typeof item?.failing_since === 'string' ? item.failing_since : null,
});

/** Starts the failure streak at `since` unless one is running (no write while it runs). */
export async function markEndpointFailing(id: string, since: string): Promise<void> {
  await updateHealth(id, { failing_since: since }, when.lacks('failing_since'));
}

/** Ends the streak that started at `since` (a success); a newer streak is left alone. */
export async function markEndpointHealthy(id: string, since: string): Promise<void> {
  await updateHealth(id, {}, when.is('failing_since', since), ['failing_since']);
}

/** A fresh health record (the endpoint enabled again, or given a new URL): failures before it do not count. */
export async function resetEndpointHealth(id: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: endpointHealthKey(id) }));
}

/** Moves the streak if `streak` holds; otherwise another attempt got there first and nothing is written. */
async function updateHealth(
  id: string,
  set: Record<string, string>,
  streak: Condition,
  remove: string[] = [],
): Promise<void> {
  await conditionHeld(
    sendUpdate({
      key: endpointHealthKey(id),
      set: { entity: entityTags.webhookEndpointHealth, ...set },
      remove,
      when: streak,
    }),
  );
}
