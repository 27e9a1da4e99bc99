/**
 * The erasure's ports: its queue of steps (domain/erasure.ts `ErasureMessage`), each step
 * enqueueing the next, and the one-off schedule that starts a job when its grace period ends.
 */
import type { ErasureMessage } from '../domain/erasure.js';

/** The body on the wire (SQS, a schedule's input). */
export const erasureMessageBody = (message: ErasureMessage): string => JSON.stringify(message);

export interface ErasureQueue {
  /** Resolves once every message is on the queue; `delaySeconds` holds them back that long first. */
  send(messages: readonly ErasureMessage[], delaySeconds?: number): Promise<void>;
}

export interface ErasureScheduler {
  /** Puts the message on the erasure queue at `at` (a one-off schedule); a repeat is harmless. */
  schedule(message: ErasureMessage, at: Date): Promise<void>;
}
