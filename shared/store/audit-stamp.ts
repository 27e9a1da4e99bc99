/**
 * The audit stamp on the wire (API.md "Accountable agents"; docs/decisions.md "The audit log"):
 * a middleware of the table's client that puts the running request's stamp (audit/write-context.ts)
 * on the first item the request writes that is a write's subject (keys.ts `auditTargetOfKey`), so
 * the audit consumer records the write from the stream and the write itself waits for nothing more.
 *
 * - A Put carries the stamp in its item; an UpdateItem SETs it.
 * - Any other UpdateItem of a subject item REMOVEs it, so a later change (a counter fold, an
 *   unaudited write) is never taken for the audited write again: every stream image that carries
 *   a stamp is exactly one audited write.
 * - A delete leaves no new image: in a transaction, the stamp goes on another item the same
 *   transaction puts or updates; a transaction of deletes only, or a lone DeleteItem, gains a Put
 *   of a small audit mark (a day's TTL) in one transaction, so the mark exists only if the delete
 *   happened.
 * The stamp is claimed when the write is sent and given back when it fails, so a handler that
 * tries a conditional write and then another stamps the one that succeeded.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { InitializeHandlerArguments, InitializeMiddleware } from '@smithy/types';
import { auditScope, type AuditScope } from '../audit/write-context.js';
import { entryIdOf, type AuditTarget, type WrittenBy } from '../domain/audit.js';
import { entityTags, keys, auditTargetOfKey } from './keys.js';
import { TABLE } from './table.js';

type Item = Record<string, unknown>;
type Input = Record<string, unknown>;
interface TransactEntry {
  Put?: { Item: Item } & Input;
  Update?: { Key: Item; UpdateExpression?: string } & Input;
  Delete?: { Key: Item } & Input;
  ConditionCheck?: Input;
}

const STAMP = TABLE.auditStampAttribute;
const NAME = '#audit_written_by';
const VALUE = ':audit_written_by';
const MARK_SECONDS = 86_400;

/** The stamp of `scope` for this target, when the request belongs to a workspace. */
function stampOf(scope: AuditScope, target: AuditTarget, item?: Item): WrittenBy | undefined {
  const workspaceId =
    scope.stamp.workspace_id ??
    (typeof item?.workspace_id === 'string' ? item.workspace_id : undefined) ??
    (target.type === 'workspace' ? target.id : undefined);
  return workspaceId ? { ...scope.stamp, workspace_id: workspaceId, target } : undefined;
}

/** `clause` added to the update expression's `SET` (or `REMOVE`) section, or as a new section. */
function withClause(expression: string, section: 'SET' | 'REMOVE', clause: string): string {
  const found = new RegExp(`\\b${section}\\b`, 'i').exec(expression);
  return found
    ? `${expression.slice(0, found.index + found[0].length)} ${clause},${expression.slice(found.index + found[0].length)}`
    : `${expression} ${section} ${clause}`;
}

function stampedUpdate<U extends { UpdateExpression?: string } & Input>(update: U, stamp: WrittenBy): U {
  return {
    ...update,
    UpdateExpression: withClause(update.UpdateExpression ?? '', 'SET', `${NAME} = ${VALUE}`),
    ExpressionAttributeNames: { ...(update.ExpressionAttributeNames as Input | undefined), [NAME]: STAMP },
    ExpressionAttributeValues: { ...(update.ExpressionAttributeValues as Input | undefined), [VALUE]: stamp },
  };
}

/** An update that does not stamp its subject item clears an earlier stamp from it. */
function clearingUpdate<U extends { Key?: unknown; UpdateExpression?: string } & Input>(update: U): U {
  if (!update.UpdateExpression || !auditTargetOfKey(update.Key ?? {})) return update;
  return {
    ...update,
    UpdateExpression: withClause(update.UpdateExpression, 'REMOVE', NAME),
    ExpressionAttributeNames: { ...(update.ExpressionAttributeNames as Input | undefined), [NAME]: STAMP },
  };
}

function markPut(tableName: unknown, stamp: WrittenBy) {
  return {
    TableName: tableName,
    Item: {
      ...keys.auditMark(entryIdOf(stamp)),
      entity: entityTags.auditMark,
      [STAMP]: stamp,
      [TABLE.ttlAttribute]: Math.floor(Date.parse(stamp.at) / 1000) + MARK_SECONDS,
    },
  };
}

/** What a write to `key` in `scope` audits as its target: the handler's, else the item's own. */
const targetIn = (scope: AuditScope, key: Item | undefined): AuditTarget | undefined =>
  scope.target ?? auditTargetOfKey(key ?? {});

const keyOf = (entry: TransactEntry): Item | undefined =>
  entry.Put?.Item ?? entry.Update?.Key ?? entry.Delete?.Key ?? undefined;

/** The transaction with the stamp placed, or undefined when it has no subject. */
function stampedTransaction(items: TransactEntry[], scope: AuditScope): TransactEntry[] | undefined {
  const subject = items.findIndex((entry) => !entry.ConditionCheck && targetIn(scope, keyOf(entry)));
  if (subject < 0) return undefined;
  const stamp = stampOf(scope, targetIn(scope, keyOf(items[subject]!))!, items[subject]!.Put?.Item);
  if (!stamp) return undefined;
  const carrier = items[subject]!.Delete ? items.findIndex((entry) => entry.Put ?? entry.Update) : subject;
  if (carrier < 0) return [...items, { Put: markPut(items[subject]!.Delete!.TableName, stamp) }];
  return items.map((entry, i) => {
    if (i !== carrier) return entry.Update ? { ...entry, Update: clearingUpdate(entry.Update) } : entry;
    return entry.Put
      ? { ...entry, Put: { ...entry.Put, Item: { ...entry.Put.Item, [STAMP]: stamp } } }
      : { ...entry, Update: stampedUpdate(entry.Update!, stamp) };
  });
}

/** Sends `input` as the command it is, the stamp claimed while it runs and given back if it fails. */
async function claiming(scope: AuditScope, send: () => Promise<unknown>) {
  scope.stamped = true;
  try {
    return await send();
  } catch (error) {
    scope.stamped = false;
    throw error;
  }
}

/** A lone DeleteItem of a subject, with its audit mark, in one transaction; answers as the DeleteItem would. */
async function deleteWithMark(
  args: InitializeHandlerArguments<Input>,
  stamp: WrittenBy,
  send: (command: TransactWriteCommand) => Promise<unknown>,
) {
  const { TableName, Key, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues } = args.input;
  const returnOnRefusal = args.input.ReturnValuesOnConditionCheckFailure as 'ALL_OLD' | undefined;
  try {
    await send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: TableName as string,
              Key: Key as Item,
              ...(ConditionExpression ? { ConditionExpression: ConditionExpression as string } : {}),
              ...(ExpressionAttributeNames
                ? { ExpressionAttributeNames: ExpressionAttributeNames as Record<string, string> }
                : {}),
              ...(ExpressionAttributeValues ? { ExpressionAttributeValues: ExpressionAttributeValues as Item } : {}),
              ...(returnOnRefusal ? { ReturnValuesOnConditionCheckFailure: returnOnRefusal } : {}),
            },
          },
          { Put: markPut(TableName, stamp) as { TableName: string; Item: Item } },
        ],
      }),
    );
  } catch (error) {
    // The caller sent a DeleteItem: its condition failing reads as a DeleteItem's would (with the
    // item as it was, when asked for).
    const reason = error instanceof TransactionCanceledException ? error.CancellationReasons?.[0] : undefined;
    if (reason?.Code === 'ConditionalCheckFailed')
      throw new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        ...(reason.Item ? { Item: reason.Item } : {}),
      });
    throw error;
  }
  return { output: { $metadata: {} }, response: {} };
}

/**
 * The middleware (on the document client, before its inputs are marshalled). `send` is the
 * client's own, for a DeleteItem that becomes a transaction.
 */
export function auditStampMiddleware(
  send: (command: TransactWriteCommand) => Promise<unknown>,
): InitializeMiddleware<Input, object> {
  return (next, context) => async (args) => {
    const scope = auditScope();
    const open = scope && !scope.stamped ? scope : undefined;
    const input = args.input;
    switch ((context as { commandName?: string }).commandName) {
      case 'PutItemCommand': {
        const item = input.Item as Item;
        const target = open && targetIn(open, item);
        const stamp = open && target && stampOf(open, target, item);
        if (!open || !stamp) return next(args);
        return (await claiming(open, () =>
          next({ ...args, input: { ...input, Item: { ...item, [STAMP]: stamp } } }),
        )) as never;
      }
      case 'UpdateItemCommand': {
        const target = open && targetIn(open, input.Key as Item | undefined);
        const stamp = open && target && input.UpdateExpression ? stampOf(open, target) : undefined;
        if (!open || !stamp) return next({ ...args, input: clearingUpdate(input) });
        return (await claiming(open, () =>
          next({ ...args, input: stampedUpdate(input as { UpdateExpression: string }, stamp) }),
        )) as never;
      }
      case 'DeleteItemCommand': {
        const target = open && targetIn(open, input.Key as Item | undefined);
        const stamp = open && target && !input.ReturnValues ? stampOf(open, target) : undefined;
        if (!open || !stamp) return next(args);
        return (await claiming(open, () => deleteWithMark(args, stamp, send))) as never;
      }
      case 'TransactWriteItemsCommand': {
        const items = input.TransactItems as TransactEntry[];
        const stamped = open && stampedTransaction(items, open);
        if (!open || !stamped)
          return next({
            ...args,
            input: {
              ...input,
              TransactItems: items.map((e) => (e.Update ? { ...e, Update: clearingUpdate(e.Update) } : e)),
            },
          });
        return (await claiming(open, () => next({ ...args, input: { ...input, TransactItems: stamped } }))) as never;
      }
      default:
        return next(args);
    }
  };
}
