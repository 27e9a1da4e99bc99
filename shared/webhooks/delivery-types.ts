/**
 * What the delivery's stages (prepare.ts, send-gate.ts, send.ts, complete.ts) hand each other and
 * the settings they read: the stages import these types from here, never from deliver.ts, which
 * composes them and is imported by none.
 */
import type { UrlPolicy } from '../config.js';
import type { HealthSettings } from '../domain/endpoint-health.js';
import type { AttemptRecord, Outcome } from '../domain/webhooks.js';
import type { LeaseLimits } from '../store/webhook-send-slots.js';

export type DeliverResult =
  'not_found' | 'not_claimed' | 'deferred' | 'abandoned' | 'succeeded' | 'failed' | 'pending' | 'lost_claim';

export interface DeliverySettings {
  /** Seconds before attempts 2..10. */
  retryDelays: readonly number[];
  /** The attempt's timeout; a claim goes stale after it (plus a margin). */
  timeoutMs: number;
  urlPolicy: UrlPolicy;
  /** Attempts in flight at once per endpoint and per workspace; more are deferred. */
  inFlight: LeaseLimits;
  health: HealthSettings;
}

/** The send stage's outcome: what the receiver answered (a timeout or a network error included). */
export interface Sent {
  tag: 'sent';
  attempt: AttemptRecord;
  startedAt: Date;
  endedAt: Date;
}

/** The record stage's outcome: recorded, or the claim was released meanwhile (a sweeper took it). */
export type Recorded = { tag: 'recorded'; outcome: Outcome; sent: Sent } | { tag: 'lost_claim' };
