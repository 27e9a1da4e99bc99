import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { db } from './client.js';
import type { TransactItem } from './transact.js';

export type TransactOutcome = { ok: true } | { ok: false; failed: boolean[] };

/**
 * One TransactWriteItems whose condition failures are an expected outcome (idempotent writes).
 * Returns which items' conditions failed instead of throwing. Transactions cancelled only because
 * another transaction touched the same item at the same moment (TransactionConflict) are retried
 * with jittered back-off: every item carries its own condition, so a retry cannot double-apply.
 */
export async function transactConditional(items: TransactItem[], attempts = 10): Promise<TransactOutcome> {
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
      if (!conflict || attempt >= attempts) throw error;
      await sleep(Math.random() * 20 * 2 ** Math.min(attempt, 5));
    }
  }
}
