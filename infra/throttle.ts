/** A stage's throttling, the same for the HTTP API and the streaming REST API. */
export interface Throttle {
  /** Steady-state requests per second across the whole stage. */
  rateLimit: number;
  /** Requests the stage absorbs at once above the steady rate. */
  burstLimit: number;
}
