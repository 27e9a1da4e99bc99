/**
 * The one way work is tried again in process: a few tries, exponential back-off with jitter
 * between them, and a say in which errors are worth another try. Everything else (a stream record
 * that still fails, a queue message) goes back to its event source, which retries across
 * invocations.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryPolicy {
  /** Tries in all, the first included (1: no retry). */
  tries: number;
  /** The pause after the first failed try, ms. */
  baseDelayMs: number;
  /** Each later pause is this many times the one before (default 2; 1 keeps the pause fixed). */
  factor?: number;
  /** The longest pause before jitter, ms (default: no cap). */
  maxDelayMs?: number;
  /**
   * Spread of each pause, 0..1 (default 0.5): a pause `d` waits between `d·(1 − jitter)` and
   * `d·(1 + jitter)`, so tries that failed together do not come back together.
   */
  jitter?: number;
  /** Whether an error is worth another try (default: every error); any other is thrown at once. */
  retryable?: (error: unknown) => boolean;
}

/** The waiting and the dice, replaceable so tests need no clock. */
export interface RetryTiming {
  sleep(ms: number): Promise<unknown>;
  random(): number;
}

const realTiming: RetryTiming = { sleep: (ms) => sleep(ms), random: Math.random };

/** The pause after `failedTries` failed tries (1 for the first pause), given a uniform draw in [0, 1). */
export function backoffDelay(policy: RetryPolicy, failedTries: number, draw: number): number {
  const base = policy.baseDelayMs * (policy.factor ?? 2) ** (failedTries - 1);
  const capped = Math.min(base, policy.maxDelayMs ?? Infinity);
  const jitter = policy.jitter ?? 0.5;
  return capped * (1 - jitter + 2 * jitter * draw);
}

/**
 * Runs `work` (given its try number, from 1) until it resolves, an error is not retryable, or
 * `tries` tries have failed; then the last error is thrown.
 */
export async function retry<T>(
  work: (tryNumber: number) => Promise<T>,
  policy: RetryPolicy,
  timing: RetryTiming = realTiming,
): Promise<T> {
  for (let tryNumber = 1; ; tryNumber++) {
    try {
      return await work(tryNumber);
    } catch (error) {
      if (tryNumber >= policy.tries || !(policy.retryable?.(error) ?? true)) throw error;
      await timing.sleep(backoffDelay(policy, tryNumber, timing.random()));
    }
  }
}
