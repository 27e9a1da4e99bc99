/**
 * Counts what one HTTP request costs in DynamoDB, as the benchmark sees it: an SDK middleware on
 * the store's DynamoDB client records every command (name, start, end, consumed capacity). It asks
 * each command for `ReturnConsumedCapacity: TOTAL`, so the read and write units are DynamoDB's own
 * figures, not computed by hand.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoDbCall {
  command: string;
  start: number;
  end: number;
  readUnits: number;
  writeUnits: number;
  /** A Query's partition (its key condition's first value): tells one query's purpose from another's. */
  partition?: string | undefined;
}

const CAPACITY_COMMANDS = new Set([
  'GetItemCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
  'TransactGetItemsCommand',
]);

const WRITE_COMMANDS = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);

type Capacity = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number };

export function recordDynamoDbCalls(client: DynamoDBDocumentClient): { calls: DynamoDbCall[]; reset(): void } {
  const calls: DynamoDbCall[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context as { commandName?: string }).commandName ?? 'unknown';
      const input = args.input as Record<string, unknown>;
      if (CAPACITY_COMMANDS.has(command)) input.ReturnConsumedCapacity = 'TOTAL';
      const start = performance.now();
      let consumed: Capacity | Capacity[] | undefined;
      try {
        const result = await next(args);
        consumed = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
        return result;
      } finally {
        // A failed call (e.g. a transaction whose condition failed) is counted with no units: the error carries no figure.
        const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce(
          (sum, c) =>
            sum +
            (WRITE_COMMANDS.has(command)
              ? (c.WriteCapacityUnits ?? c.CapacityUnits ?? 0)
              : (c.ReadCapacityUnits ?? c.CapacityUnits ?? 0)),
          0,
        );
        const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
        const partition = command === 'QueryCommand' && values ? Object.values(values)[0] : undefined;
        calls.push({
          partition: typeof partition === 'string' ? partition : undefined,
          command: command.replace(/Command$/, ''),
          start,
          end: performance.now(),
          readUnits: WRITE_COMMANDS.has(command) ? 0 : units,
          writeUnits: WRITE_COMMANDS.has(command) ? units : 0,
        });
      }
    },
    { step: 'initialize', name: 'benchCallRecorder' },
  );
  return { calls, reset: () => void calls.splice(0) };
}

/**
 * The longest chain of calls each of which started after the previous one ended: the round trips
 * the request waited for one after another (calls that overlap count once).
 */
export function sequentialRoundTrips(calls: readonly DynamoDbCall[]): number {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((call, i) => {
    depth[i] =
      1 + Math.max(0, ...sorted.slice(0, i).flatMap((before, j) => (before.end <= call.start ? [depth[j]!] : [])));
  });
  return Math.max(0, ...depth);
}
