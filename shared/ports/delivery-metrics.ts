/** What the sender reports about each attempt; the Lambda sender emits it as CloudWatch metrics. */
export interface AttemptReport {
  /** The delivery's status after the attempt: succeeded, pending (a retry is scheduled) or failed (for good). */
  outcome: 'succeeded' | 'pending' | 'failed';
  durationMs: number;
}

export interface DeliveryMetrics {
  attempt(report: AttemptReport): void;
  /** A claimed delivery that was not sent: its endpoint was disabled, revoked or deleted meanwhile. */
  abandoned(): void;
  /** Writes what was recorded (once per batch of queue messages). */
  flush(): void;
}
