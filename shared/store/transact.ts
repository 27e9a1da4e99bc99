import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { retry, type RetryPolicy } from '../pipeline/retry.js';
import { db } from './client.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction item with the error to answer when its condition refuses the transaction. */
export interface GuardedItem {
  item: TransactItem;
  refused: () => Error;
}

export type TransactOutcome = { ok: true } | { ok: false; failed: boolean[] };

const reasonsOf = (error: TransactionCanceledException) => error.CancellationReasons ?? [];

/** Cancelled only because another transaction touched the same item at the same moment, or throttled. */
const cancelledByContention = (error: unknown): boolean =>
  error instanceof TransactionCanceledException &&
  !reasonsOf(error).some((r) => r.Code === 'ConditionalCheckFailed') &&
  reasonsOf(error).some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');

/** Up to 10 tries, pauses drawn from [0, 40 ms) doubling to [0, 640 ms). */
const CONTENTION_RETRY: RetryPolicy = {
  tries: 10,
  baseDelayMs: 20,
  maxDelayMs: 320,
  jitter: 1,
  retryable: cancelledByContention,
};

/**
 * One TransactWriteItems. A transaction cancelled only by contention (TransactionConflict, e.g.
 * two likes on one post's counter) is sent again with jittered back-off: every item carries its
 * own condition, so a retry cannot apply twice. Returns which items' conditions failed instead of
 * throwing.
 */
export async function transactConditional(items: TransactItem[]): Promise<TransactOutcome> {
  try {
    await retry(() => db().send(new TransactWriteCommand({ TransactItems: items })), CONTENTION_RETRY);
    return { ok: true };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const failed = items.map((_, i) => reasonsOf(error)[i]?.Code === 'ConditionalCheckFailed');
    if (failed.some(Boolean)) return { ok: false, failed };
    throw error;
  }
}

/**
 * One TransactWriteItems (with the conflict retries above). When a condition fails,
 * `onConditionFailed` receives the index of the first failed item and returns the error to throw
 * (usually a domain AppError); without it the cancellation itself is thrown.
 */
export async function transact(items: TransactItem[], onConditionFailed?: (index: number) => Error): Promise<void> {
  const outcome = await transactConditional(items);
  if (outcome.ok) return;
  const index = outcome.failed.indexOf(true);
  throw onConditionFailed
    ? onConditionFailed(index)
    : new TransactionCanceledException({
        message: `Transaction cancelled: condition of item ${index} failed`,
        $metadata: {},
      });
}

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
