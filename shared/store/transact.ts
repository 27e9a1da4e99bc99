import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One TransactWriteItems. When a condition fails, `onConditionFailed` receives the index of the
 * first failed item and returns the error to throw (usually a domain ApiError).
 */
export async function transact(items: TransactItem[], onConditionFailed?: (index: number) => Error): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (error instanceof TransactionCanceledException && onConditionFailed) {
      const index = (error.CancellationReasons ?? []).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (index >= 0) throw onConditionFailed(index);
    }
    throw error;
  }
}

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
