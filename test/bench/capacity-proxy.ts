/**
 * A counting proxy in front of DynamoDB Local for the benchmarks: it asks for
 * `ReturnConsumedCapacity: INDEXES` on every write and adds up what DynamoDB Local reports — the
 * base table and each GSI separately, transactional writes already doubled, item sizes rounded
 * up per KB, an index key change counted as the delete plus the put it is billed as (checked
 * against DynamoDB Local 3.3.0). The local runtime's stream checkpoints (no such writes in AWS,
 * where Lambda's event source keeps its position) are not counted.
 *
 * It also books each write's units on the partition keys it wrote: the base table's on the item's
 * `pk`, each index's on the item's key of that index (`gsi1:<gsi1pk>`; from the request's item, or
 * from the returned attributes of an update that asks for them, else `gsi1:?`). DynamoDB Local
 * reports one figure per table for a transaction or a batch: those are split evenly over its items
 * (marked `≈` in the key).
 *
 * And it notes every table call (reads too; not the stream's own API, nor the checkpoints) with the
 * partition key it names, so a benchmark can tell the stream consumers' calls from the requests'.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

export interface WriteUnits {
  table: number;
  indexes: number;
  total: number;
  requests: number;
}

/** Write requests and their units by kind: operation and the kinds of item written (sort key up to its first `#`, or the entity). */
export type WriteBreakdown = Map<string, { requests: number; units: number }>;

/** Writes and units booked on one partition key (`pk`, or `<index>:<index pk>`). */
export type PartitionBook = Map<string, { writes: number; units: number }>;

/** One counted write as it was sent, for a benchmark that looks at what a write did. */
export interface CountedWrite {
  operation: string;
  input: Record<string, unknown>;
  units: number;
}

/** One call to the table: its operation and the partition key it names (the first it names: an item's key, else the first string value, a query's key; '' for none). */
export interface TableCall {
  operation: string;
  pk: string;
}

export interface CapacityProxy {
  endpoint: string;
  /** Write units counted since the start (or the last `reset`). */
  units(): WriteUnits;
  /** The same units by kind of write request. */
  breakdown(): WriteBreakdown;
  /** The same units by the partition key they were written to. */
  partitions(): PartitionBook;
  /** Every counted write since the start (or the last `reset`), in the order they were answered. */
  writes(): CountedWrite[];
  /** Every table call since the start (or the last `reset`), in the order they came. */
  calls(): TableCall[];
  reset(): void;
  close(): Promise<void>;
}

export async function startCapacityProxy(target: string): Promise<CapacityProxy> {
  const upstream = new URL(target);
  let counted: WriteUnits = { table: 0, indexes: 0, total: 0, requests: 0 };
  let kinds: WriteBreakdown = new Map();
  let book: PartitionBook = new Map();
  let log: CountedWrite[] = [];
  let calls: TableCall[] = [];
  const bookOn = (key: string, units: number, writes: number) => {
    const entry = book.get(key) ?? { writes: 0, units: 0 };
    entry.writes += writes;
    entry.units += units;
    book.set(key, entry);
  };
  const add = (
    capacity: Capacity[] | Capacity | undefined,
    kind: string,
    operation: string,
    input: Record<string, unknown>,
    attributes: Record<string, Attribute> | undefined,
  ) => {
    const entry = kinds.get(kind) ?? { requests: 0, units: 0 };
    entry.requests += 1;
    kinds.set(kind, entry);
    const items = itemsOf(operation, input);
    const share = items.length > 1 ? '≈' : '';
    let units = 0;
    for (const c of Array.isArray(capacity) ? capacity : capacity ? [capacity] : []) {
      const indexes = Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((sum, i) => sum + (i.CapacityUnits ?? 0), 0);
      const table = c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - indexes;
      counted.table += table;
      counted.indexes += indexes;
      counted.total += c.CapacityUnits ?? 0;
      entry.units += c.CapacityUnits ?? 0;
      units += c.CapacityUnits ?? 0;
      for (const item of items) {
        bookOn(`${share}${item.pk?.S ?? '?'}`, table / items.length, 1);
        for (const [index, used] of Object.entries(c.GlobalSecondaryIndexes ?? {})) {
          const indexKey = (item[`${index}pk`] ?? attributes?.[`${index}pk`])?.S ?? '?';
          bookOn(`${share}${index}:${indexKey}`, (used.CapacityUnits ?? 0) / items.length, 1);
        }
      }
    }
    log.push({ operation, input, units });
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const checkpoint = body.includes('STREAMCHECKPOINT');
      const counting = WRITES.has(operation) && !checkpoint;
      const text = body.toString('utf8');
      if (String(req.headers['x-amz-target']).startsWith('DynamoDB_') && !checkpoint)
        calls.push({ operation, pk: /pk":\{"S":"([^"]*)"/.exec(text)?.[1] ?? /"S":"([^"]*)"/.exec(text)?.[1] ?? '' });
      let kind = operation;
      let input: Record<string, unknown> = {};
      if (counting) {
        input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        kind = kindOf(operation, input);
        input.ReturnConsumedCapacity = 'INDEXES';
        body = Buffer.from(JSON.stringify(input));
        counted.requests += 1;
      }
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host, 'content-length': String(body.length) },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            if (counting && answer.statusCode === 200) {
              try {
                const output = JSON.parse(text.toString('utf8')) as {
                  ConsumedCapacity?: Capacity[] | Capacity;
                  Attributes?: Record<string, Attribute>;
                };
                add(output.ConsumedCapacity, kind, operation, input, output.Attributes);
              } catch {
                // Not JSON: nothing to count.
              }
            }
            res.writeHead(answer.statusCode ?? 500, { ...answer.headers, 'content-length': String(text.length) });
            res.end(text);
          });
        },
      );
      forward.on('error', (error) => res.destroy(error));
      forward.end(body);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    units: () => ({ ...counted }),
    breakdown: () => new Map([...kinds].map(([kind, entry]) => [kind, { ...entry }])),
    partitions: () => new Map([...book].map(([key, entry]) => [key, { ...entry }])),
    writes: () => [...log],
    calls: () => [...calls],
    reset: () => {
      counted = { table: 0, indexes: 0, total: 0, requests: 0 };
      kinds = new Map();
      book = new Map();
      log = [];
      calls = [];
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

type Attribute = { S?: string };
type Item = Record<string, Attribute>;

/** The items a write request writes: the key (or whole item) of each, as the request spells it. */
function itemsOf(operation: string, input: Record<string, unknown>): Item[] {
  const one = (request: Record<string, unknown>) => (request.Item ?? request.Key ?? {}) as Item;
  if (operation === 'TransactWriteItems')
    return (input.TransactItems as Record<string, Record<string, unknown>>[]).map((item) =>
      one(Object.values(item)[0]!),
    );
  if (operation === 'BatchWriteItem')
    return Object.values(input.RequestItems as Record<string, Record<string, Record<string, unknown>>[]>)
      .flat()
      .map((request) => one(Object.values(request)[0]!));
  return [one(input)];
}

/** `UpdateItem WHDL`, `TransactWriteItems [PutItem WHDL, UpdateItem WEBHOOK_TOTALS, ConditionCheck WHEP]`, … */
function kindOf(operation: string, input: Record<string, unknown>): string {
  const itemKind = (request: Record<string, unknown>) => {
    const key = (request.Key ?? request.Item) as Record<string, Attribute> | undefined;
    const sk = key?.sk?.S ?? '?';
    // A sort key that is a bare id (an event log's entry) says nothing: its partition's prefix does.
    return (sk.includes('#') ? sk : (key?.pk?.S ?? sk)).split('#')[0];
  };
  if (operation === 'TransactWriteItems') {
    const items = (input.TransactItems as Record<string, Record<string, unknown>>[]).map((item) => {
      const [type, request] = Object.entries(item)[0]!;
      return `${type} ${itemKind(request)}`;
    });
    return `${operation} [${items.join(', ')}]`;
  }
  if (operation === 'BatchWriteItem') return operation;
  return `${operation} ${itemKind(input)}`;
}
