/**
 * How a waiting reader of a profile's event log (a long poll, a stream) learns that the log may
 * have grown. Locally the stream poller that writes the log wakes the readers of the profile in
 * process (one wake-up per profile, however many wait); in Lambda nothing can, and the wait ends
 * after a short pause for the reader to look again.
 */
export interface EventWake {
  /** Resolves when the log of `profileId` may have grown, after `ms` at the latest, or when `signal` aborts. */
  wait(profileId: string, ms: number, signal?: AbortSignal): Promise<void>;
}
