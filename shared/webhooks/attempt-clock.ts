/**
 * One clock per attempt: the wall clock is read once, when the attempt begins; every later instant
 * of the attempt (the POST's start and end, the outcome) is that reading plus the monotonic time
 * elapsed since. The attempt's times are then consistent with each other (never out of order, a
 * duration always their difference), and a test can pin the clock.
 */
export interface AttemptClock {
  /** The instant the attempt began: lease expiries, the claim, a deferral are reckoned from it. */
  readonly now: Date;
  /** The instant now, as the attempt's clock reckons it. */
  later(): Date;
}

export function attemptClock(read: () => Date = () => new Date()): AttemptClock {
  const now = read();
  const started = performance.now();
  return { now, later: () => new Date(now.getTime() + Math.round(performance.now() - started)) };
}
