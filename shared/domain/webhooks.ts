/**
 * Webhook endpoints and deliveries: records, the selection rule, response handling and the
 * delivery state machine. Pure logic (no AWS, no HTTP types).
 */
import * as z from 'zod/mini';
import { OutboxEvent, TEST_EVENT_TYPE, isOperationalEvent, type EventType } from './events.js';
import { idFromParts, newId } from './ids.js';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule.js';
import { generateSigningSecret } from './signing.js';

export type EndpointStatus = 'active' | 'disabled' | 'revoked';
/** Why the sender disabled an endpoint: it answered 410 Gone, or all its attempts failed for the health period. */
export type DisabledReason = 'gone' | 'failing';
export const DeliveryStatus = z.enum(['pending', 'delivering', 'succeeded', 'failed']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** How long the previous secret keeps signing after a rotation. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
/** Receiver response bodies are kept up to this many bytes per attempt. */
export const RESPONSE_BODY_LIMIT = 2048;
/** Delivery activity shows this many deliveries (also the default page size of the filtered log). */
export const ACTIVITY_LIMIT = 50;
/** The longest window a recovery may cover. */
export const RECOVERY_WINDOW_MS = 14 * 86_400_000;
/** A recovery restarts at most this many deliveries per call; calling again continues with the rest. */
export const RECOVERY_BATCH_LIMIT = 1000;

/** Filters of the delivery log; `since` (inclusive) and `until` (exclusive) bound updated_at (ISO UTC). */
export interface DeliveryFilter {
  status?: DeliveryStatus | undefined;
  event_type?: string | undefined;
  webhook_endpoint_id?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/**
 * Whether a recovery over `[since, until)` restarts this failed delivery: it failed in the window
 * and no retry or recovery restarted it since the window began (so an identical second call, or
 * one whose window overlaps, does not send again what the first one restarted).
 */
export function recoverable(
  d: Pick<DeliveryRecord, 'status' | 'updated_at' | 'restarted_at'>,
  since: string,
  until: string,
): boolean {
  return (
    d.status === 'failed' &&
    d.updated_at >= since &&
    d.updated_at < until &&
    !(d.restarted_at && d.restarted_at >= since)
  );
}

export interface WebhookEndpointRecord {
  id: string;
  workspace_id: string;
  name: string;
  url: string;
  event_types: EventType[];
  profile_ids: string[];
  status: EndpointStatus;
  secret: string;
  /** The secret before the last rotation; signs alongside `secret` until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  disabled_at: string | null;
  disabled_reason: DisabledReason | null;
  /** Deliveries per second the sender keeps to (spaced, never dropped); null: no limit of its own. */
  rate_limit_per_second: number | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A new endpoint, active, with a fresh signing secret. */
export function newWebhookEndpoint(
  now: Date,
  workspaceId: string,
  fields: Pick<WebhookEndpointRecord, 'name' | 'url' | 'event_types' | 'profile_ids'> & {
    rate_limit_per_second?: number | null;
  },
): WebhookEndpointRecord {
  const at = now.toISOString();
  return {
    id: newId(),
    workspace_id: workspaceId,
    name: fields.name,
    url: fields.url,
    event_types: fields.event_types,
    profile_ids: fields.profile_ids,
    status: 'active',
    secret: generateSigningSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    disabled_at: null,
    disabled_reason: null,
    rate_limit_per_second: fields.rate_limit_per_second ?? null,
    revoked_at: null,
    created_at: at,
    updated_at: at,
  };
}

export interface DeliveryRecord {
  id: string;
  workspace_id: string;
  webhook_event_id: string;
  webhook_endpoint_id: string;
  event_type: string;
  /** The event's affected profile; null for operational (workspace-wide) events. */
  profile_id: string | null;
  status: DeliveryStatus;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
  /** Set while `delivering`: the attempt number being made and when it was claimed. */
  claimed_attempt: number | null;
  claimed_at: string | null;
  /** When a manual retry or a recovery last restarted it (recovery restarts each delivery once per window). */
  restarted_at?: string | null;
}

export interface AttemptRecord {
  delivery_id: string;
  number: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
}

export interface WebhookTotals {
  total: number;
  succeeded: number;
  failed: number;
  pending: number;
  delivering: number;
}

/**
 * A `webhook.test` event carries the one endpoint it is for; an operational event the endpoint it
 * is about (which it never goes to).
 */
export const WebhookEvent = z.extend(OutboxEvent, { webhook_endpoint_id: z.optional(z.string()) });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/**
 * The spec's selection rule: the endpoint belongs to the affected profile's workspace, is active,
 * selected the profile and selected the type. `webhook.test` goes to its target endpoint only.
 * Operational events concern the workspace, not a profile: every other active endpoint of the
 * workspace that selected the type gets them, whatever its `profile_ids`.
 */
export function endpointMatches(endpoint: WebhookEndpointRecord, event: WebhookEvent): boolean {
  if (endpoint.workspace_id !== event.workspace_id || endpoint.status !== 'active') return false;
  if (event.type === TEST_EVENT_TYPE) return endpoint.id === event.webhook_endpoint_id;
  if (!(endpoint.event_types as string[]).includes(event.type)) return false;
  if (isOperationalEvent(event.type)) return endpoint.id !== event.webhook_endpoint_id;
  return event.profile_id !== null && endpoint.profile_ids.includes(event.profile_id);
}

/**
 * The delivery id (= `webhook-id`) of an event for an endpoint: derived from both, so a redelivered
 * stream record finds the delivery it already created.
 */
export const deliveryIdFor = (eventId: string, endpointId: string): string => idFromParts(eventId, endpointId);

/** What one attempt produced: a response status, or an error (timeout, network, refused address). */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  startedAt: Date;
  endedAt: Date;
}

export type Outcome =
  | { status: 'succeeded'; disableEndpoint: false }
  | { status: 'failed'; disableEndpoint: boolean; exhausted: boolean }
  | { status: 'pending'; disableEndpoint: false; nextAttemptAt: Date };

/**
 * The spec's response handling table: 2xx succeeds; 410 fails permanently and disables the
 * endpoint; 3xx (not followed), other statuses, timeouts and network errors fail the attempt,
 * retried while attempts remain.
 */
export function outcomeOf(attempt: number, result: AttemptResult, delays: readonly number[]): Outcome {
  const code = result.statusCode;
  if (code !== null && code >= 200 && code <= 299) return { status: 'succeeded', disableEndpoint: false };
  if (code === 410) return { status: 'failed', disableEndpoint: true, exhausted: false };
  const next = attempt < MAX_ATTEMPTS ? nextAttemptAt(attempt, result.endedAt, delays) : undefined;
  return next
    ? { status: 'pending', disableEndpoint: false, nextAttemptAt: next }
    : { status: 'failed', disableEndpoint: false, exhausted: true };
}

/** The error text recorded for a non-2xx response (no receiver content in it). */
export function errorForStatus(code: number): string | null {
  if (code >= 200 && code <= 299) return null;
  if (code === 410) return 'receiver answered 410 Gone: endpoint disabled';
  if (code >= 300 && code <= 399) return `receiver answered ${code} redirect (redirects are not followed)`;
  return `receiver answered ${code}`;
}

/** The secrets that sign at `now`: the current one, and the previous one during its 24 h overlap. */
export function signingSecrets(endpoint: WebhookEndpointRecord, now: Date): string[] {
  const secrets = [endpoint.secret];
  if (
    endpoint.previous_secret &&
    endpoint.previous_secret_expires_at &&
    Date.parse(endpoint.previous_secret_expires_at) > now.getTime()
  ) {
    secrets.push(endpoint.previous_secret);
  }
  return secrets;
}

/** success_rate: succeeded / (succeeded + failed) × 100 rounded to 0.1, or null when none completed. */
export function successRate(totals: WebhookTotals): number | null {
  const completed = totals.succeeded + totals.failed;
  return completed === 0 ? null : Math.round((totals.succeeded / completed) * 1000) / 10;
}

/**
 * A claim (`delivering`) older than this is considered abandoned (the sender died mid-attempt) and
 * the sweeper releases it: twice the attempt timeout plus a margin.
 */
export const staleClaimMs = (timeoutMs: number) => timeoutMs * 2 + 5000;
