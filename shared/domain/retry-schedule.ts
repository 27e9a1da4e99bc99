/**
 * The spec's retry schedule: one initial attempt plus nine retries. `delays` are the seconds before
 * attempts 2..10 (config.webhookRetryDelays), measured from the end of the preceding failed attempt.
 */
export const MAX_ATTEMPTS = 10;

/** Spec defaults: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const SPEC_RETRY_DELAYS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const;

/** Seconds to wait before the attempt after `failedAttempt`, or undefined when none remains. */
export function retryDelaySeconds(failedAttempt: number, delays: readonly number[]): number | undefined {
  if (failedAttempt >= MAX_ATTEMPTS) return undefined;
  return delays[failedAttempt - 1];
}

/** When the next attempt is due, or undefined when attempts are exhausted. */
export function nextAttemptAt(failedAttempt: number, endedAt: Date, delays: readonly number[]): Date | undefined {
  const delay = retryDelaySeconds(failedAttempt, delays);
  return delay === undefined ? undefined : new Date(endedAt.getTime() + delay * 1000);
}
