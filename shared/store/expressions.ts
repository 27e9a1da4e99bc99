/**
 * DynamoDB expressions built from values instead of written by hand: conditions (for updates,
 * puts, deletes, condition checks and query filters) and the `updateItem` builder. Every
 * attribute name becomes a generated `#n<i>` and every value a `:v<i>`, so no store spells a
 * placeholder, and reserved words (`status`, `role`, `name`) need no care.
 *
 * An attribute path is its names joined by dots (`media.avatar.light`): no attribute of this
 * table has a dot in its name.
 */
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './batch.js';
import { tableName } from './client.js';
import { TABLE } from './table.js';

/** Collects the placeholders of one request: the same attribute name is one `#n`, each value its own `:v`. */
export class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly byName = new Map<string, string>();

  /** `#n0.#n1` for `a.b`. */
  name(path: string): string {
    return path
      .split('.')
      .map((part) => {
        let placeholder = this.byName.get(part);
        if (!placeholder) {
          placeholder = `#n${this.byName.size}`;
          this.byName.set(part, placeholder);
          this.names[placeholder] = part;
        }
        return placeholder;
      })
      .join('.');
  }

  value(value: unknown): string {
    const placeholder = `:v${Object.keys(this.values).length}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The request's ExpressionAttributeNames/Values, left out when empty (DynamoDB refuses empty maps). */
  attributes(): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  } {
    return {
      ...(Object.keys(this.names).length ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

/** A condition, written into a request's expression with that request's placeholders. */
export type Condition = (p: Placeholders) => string;

type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';

/**
 * The parts a condition is made of. Stores name the parts they use (`const stillPublished =
 * is('status', 'published')`) and combine them with `all`/`any`; a list of conditions means all.
 */
export const when = {
  /** The item exists (its partition key is there). */
  exists: (): Condition => (p) => `attribute_exists(${p.name(TABLE.partitionKey)})`,
  /** The item does not exist. */
  absent: (): Condition => (p) => `attribute_not_exists(${p.name(TABLE.partitionKey)})`,
  has:
    (path: string): Condition =>
    (p) =>
      `attribute_exists(${p.name(path)})`,
  lacks:
    (path: string): Condition =>
    (p) =>
      `attribute_not_exists(${p.name(path)})`,
  is:
    (path: string, value: unknown): Condition =>
    (p) =>
      `${p.name(path)} = ${p.value(value)}`,
  compare:
    (path: string, comparator: Comparator, value: unknown): Condition =>
    (p) =>
      `${p.name(path)} ${comparator} ${p.value(value)}`,
  /** The attribute is one of `values` (at least one). */
  oneOf:
    (path: string, values: readonly unknown[]): Condition =>
    (p) =>
      `${p.name(path)} IN (${values.map((v) => p.value(v)).join(', ')})`,
  /** The size of a set, list, map or string compared with `value`. */
  size:
    (path: string, comparator: Comparator, value: number): Condition =>
    (p) =>
      `size(${p.name(path)}) ${comparator} ${p.value(value)}`,
  beginsWith:
    (path: string, prefix: string): Condition =>
    (p) =>
      `begins_with(${p.name(path)}, ${p.value(prefix)})`,
  all:
    (...parts: Condition[]): Condition =>
    (p) =>
      parts.map((part) => `(${part(p)})`).join(' AND '),
  any:
    (...parts: Condition[]): Condition =>
    (p) =>
      parts.map((part) => `(${part(p)})`).join(' OR '),
};

/** One condition, a list of conditions that must all hold, or none. */
export type Conditions = Condition | readonly Condition[] | undefined;

const conditionOf = (conditions: Conditions): Condition | undefined =>
  typeof conditions === 'function'
    ? conditions
    : conditions && conditions.length > 0
      ? conditions.length === 1
        ? conditions[0]
        : when.all(...conditions)
      : undefined;

/** The condition's expression with `p`'s placeholders, or undefined without one. */
export function conditionExpression(conditions: Conditions, p: Placeholders): string | undefined {
  return conditionOf(conditions)?.(p);
}

/** What an update changes: each map from attribute path to value; `undefined` values are skipped. */
export interface UpdateSpec {
  key: ItemKey;
  set?: Record<string, unknown>;
  /** Elements appended to a list (which must exist). */
  append?: Record<string, readonly unknown[]>;
  /** Attribute paths removed. */
  remove?: readonly string[];
  /** Numbers added, or members added to a set. */
  add?: Record<string, number | Set<string> | Set<number> | Set<Uint8Array>>;
  /** Members taken out of a set. */
  delete?: Record<string, Set<string> | Set<number> | Set<Uint8Array>>;
  /** What must hold for the update to apply. */
  when?: Conditions;
  /** The item's attributes returned when the condition does not hold (read with `conditionOutcome`). */
  returnOnRefusal?: 'ALL_OLD';
}

/** An UpdateItem request without return values: what a transaction's `Update` takes too. */
export interface UpdateRequest {
  TableName: string;
  Key: ItemKey;
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD';
}

const defined = (map: Record<string, unknown> | undefined) =>
  Object.entries(map ?? {}).filter(([, value]) => value !== undefined);

/**
 * The UpdateItem request of `spec`, without ReturnValues: as it is, it is the `Update` of a
 * transaction item; `updateItem` adds the return values of a single update.
 */
export function updateRequest(spec: UpdateSpec): UpdateRequest {
  const p = new Placeholders();
  const clauses: string[] = [];
  const set = [
    ...defined(spec.set).map(([path, value]) => `${p.name(path)} = ${p.value(value)}`),
    ...defined(spec.append).map(([path, value]) => `${p.name(path)} = list_append(${p.name(path)}, ${p.value(value)})`),
  ];
  if (set.length) clauses.push(`SET ${set.join(', ')}`);
  if (spec.remove?.length) clauses.push(`REMOVE ${spec.remove.map((path) => p.name(path)).join(', ')}`);
  const add = defined(spec.add).map(([path, value]) => `${p.name(path)} ${p.value(value)}`);
  if (add.length) clauses.push(`ADD ${add.join(', ')}`);
  const del = defined(spec.delete).map(([path, value]) => `${p.name(path)} ${p.value(value)}`);
  if (del.length) clauses.push(`DELETE ${del.join(', ')}`);
  if (clauses.length === 0) throw new Error('An update must change something');
  const condition = conditionExpression(spec.when, p);
  return {
    TableName: tableName(),
    Key: spec.key,
    UpdateExpression: clauses.join(' '),
    ...(condition ? { ConditionExpression: condition } : {}),
    ...p.attributes(),
    ...(spec.returnOnRefusal ? { ReturnValuesOnConditionCheckFailure: spec.returnOnRefusal } : {}),
  };
}

/** A single UpdateItem request: `updateRequest` with the attributes it returns when it applies. */
export function updateItem(
  spec: UpdateSpec & { returns?: 'ALL_NEW' | 'UPDATED_NEW' | 'ALL_OLD' | 'UPDATED_OLD' },
): UpdateCommandInput {
  return { ...updateRequest(spec), ...(spec.returns ? { ReturnValues: spec.returns } : {}) };
}

/** The condition of a Put, Delete or ConditionCheck on the table, with its table name (spread into the request). */
export function conditionRequest(conditions: Condition | readonly Condition[]): {
  TableName: string;
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  const p = new Placeholders();
  const condition = conditionExpression(conditions, p);
  if (!condition) throw new Error('A condition needs at least one part');
  return { TableName: tableName(), ConditionExpression: condition, ...p.attributes() };
}
