/**
 * "Did the condition hold": a conditional write's refusal is an answer, not an error. One place
 * tells a ConditionalCheckFailedException from every other failure (which still throws).
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { isConditionFailure } from './transact.js';

type Item = Record<string, unknown>;

/** What a conditional write came to: its result when the condition held, else the item as it was (when asked for). */
export type ConditionOutcome<T> = { held: true; result: T } | { held: false; item: Item | undefined };

/**
 * Awaits a conditional write. Refused: `held: false` with the item DynamoDB returned with the
 * refusal (`ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`, `returnOnRefusal` in the update
 * builder), read into plain values; undefined when not asked for or when there was no item.
 */
export async function conditionOutcome<T>(write: Promise<T>): Promise<ConditionOutcome<T>> {
  try {
    return { held: true, result: await write };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const raw = (error as { Item?: Record<string, AttributeValue> }).Item;
    return { held: false, item: raw ? unmarshall(raw) : undefined };
  }
}

/** Awaits a conditional write: true when it applied, false when its condition did not hold. */
export async function conditionHeld(write: Promise<unknown>): Promise<boolean> {
  return (await conditionOutcome(write)).held;
}
