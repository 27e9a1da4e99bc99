import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { db } from './client.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction item with the error to answer when its condition refuses the transaction. */
export interface GuardedItem {
  item: TransactItem;
  refused: () => Error;
}

export type TransactOutcome = { ok: true } | { ok: false; failed: boolean[] };

const MAX_ATTEMPTS = 10;

/**
 * One TransactWriteItems. A transaction cancelled only because another one touched the same item
 * at the same moment (TransactionConflict, e.g. two likes on one post's counter) is sent again
 * with jittered back-off: every item carries its own condition, so a retry cannot apply twice.
 * Returns which items' conditions failed instead of throwing.
 */
export async function transactConditional(items: TransactItem[]): Promise<TransactOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { ok: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = items.map((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
      if (failed.some(Boolean)) return { ok: false, failed };
      const conflict = reasons.some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');
      if (!conflict || attempt >= MAX_ATTEMPTS) throw error;
      await sleep(Math.random() * 20 * 2 ** Math.min(attempt, 5));
    }
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
