/**
 * The bytes a receiver gets for an event: `eventBody` serialised with the keys of every nested
 * object in sorted order. The sender builds it from the event item on each attempt, and DynamoDB
 * does not keep a map's key order, so only a canonical order makes every attempt (and every
 * endpoint) get the same bytes.
 */
import { eventBody, type OutboxEvent } from '../domain/events.js';

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
};

/** `{ id, type, profile_id, created_at, data }` (in that order), `data` with sorted keys. */
export const webhookBody = (event: OutboxEvent): string => {
  const body = eventBody(event);
  return JSON.stringify({ ...body, data: canonical(body.data) });
};
