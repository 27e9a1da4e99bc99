/**
 * A counting proxy in front of DynamoDB Local for the benchmarks: it asks for
 * `ReturnConsumedCapacity: INDEXES` on every write and adds up what DynamoDB Local reports — the
 * base table and each GSI separately, transactional writes already doubled, item sizes rounded
 * up per KB, an index key change counted as the delete plus the put it is billed as (checked
 * against DynamoDB Local 3.3.0). The local runtime's stream checkpoints (no such writes in AWS,
 * where Lambda's event source keeps its position) are not counted.
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

export interface CapacityProxy {
  endpoint: string;
  /** Write units counted since the start (or the last `reset`). */
  units(): WriteUnits;
  /** The same units by kind of write request. */
  breakdown(): WriteBreakdown;
  reset(): void;
  close(): Promise<void>;
}

export async function startCapacityProxy(target: string): Promise<CapacityProxy> {
  const upstream = new URL(target);
  let counted: WriteUnits = { table: 0, indexes: 0, total: 0, requests: 0 };
  let kinds: WriteBreakdown = new Map();
  const add = (capacity: Capacity[] | Capacity | undefined, kind: string) => {
    const entry = kinds.get(kind) ?? { requests: 0, units: 0 };
    entry.requests += 1;
    kinds.set(kind, entry);
    for (const c of Array.isArray(capacity) ? capacity : capacity ? [capacity] : []) {
      const indexes = Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((sum, i) => sum + (i.CapacityUnits ?? 0), 0);
      counted.table += c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - indexes;
      counted.indexes += indexes;
      counted.total += c.CapacityUnits ?? 0;
      entry.units += c.CapacityUnits ?? 0;
    }
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const counting = WRITES.has(operation) && !body.includes('STREAMCHECKPOINT');
      let kind = operation;
      if (counting) {
        const input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
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
                add(
                  (JSON.parse(text.toString('utf8')) as { ConsumedCapacity?: Capacity[] | Capacity }).ConsumedCapacity,
                  kind,
                );
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
    reset: () => {
      counted = { table: 0, indexes: 0, total: 0, requests: 0 };
      kinds = new Map();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

type Attribute = { S?: string };

/** `UpdateItem WHDL`, `TransactWriteItems [PutItem WHDL, UpdateItem WEBHOOK_TOTALS, ConditionCheck WHEP]`, … */
function kindOf(operation: string, input: Record<string, unknown>): string {
  const itemKind = (request: Record<string, unknown>) => {
    const key = (request.Key ?? request.Item) as Record<string, Attribute> | undefined;
    return (key?.sk?.S ?? '?').split('#')[0];
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
