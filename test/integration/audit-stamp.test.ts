/**
 * The audit stamp on the wire (shared/store/audit-stamp.ts), against DynamoDB Local: the first
 * write of a request that has a subject carries the request's entry, and only that one; a write
 * that fails gives the stamp back; an unstamped update clears an old stamp; a lone delete comes
 * with an audit mark in one transaction, and still fails as a DeleteItem when its condition does.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runAudited } from '../../shared/audit/write-context.js';
import { entryIdOf, type PendingStamp } from '../../shared/domain/audit.js';
import { newId } from '../../shared/domain/ids.js';
import { db, tableName } from '../../shared/store/client.js';
import { keys } from '../../shared/store/keys.js';

const pending = (): PendingStamp => ({
  entry_id: newId(),
  request_id: newId(),
  at: new Date().toISOString(),
  workspace_id: newId(),
  actor: { kind: 'api_key', api_key_id: newId() },
  acting_profile_id: newId(),
  route: 'posts/create-post',
  ip_prefix: '127.0.0.0/24',
});

const read = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const put = (item: Record<string, unknown>, condition?: string) =>
  db().send(
    new PutCommand({ TableName: tableName(), Item: item, ...(condition ? { ConditionExpression: condition } : {}) }),
  );

describe('the audit stamp', () => {
  it("puts the request's entry on its first subject item only, with the item's target", async () => {
    const stamp = pending();
    const [post, other] = [newId(), newId()];
    await runAudited(stamp, async () => {
      await put({ ...keys.auditMark(`not-a-subject-${newId()}`), note: 'no subject' });
      await put({ ...keys.post(post), body: 'first' });
      await put({ ...keys.post(other), body: 'second' });
    });
    expect((await read(keys.post(post)))?.written_by).toEqual({
      ...stamp,
      target: { type: 'post', id: post },
    });
    expect((await read(keys.post(other)))?.written_by).toBeUndefined();
  });

  it('gives the stamp back when the write fails, so the write that succeeds carries it', async () => {
    const stamp = pending();
    const [taken, fresh] = [newId(), newId()];
    await put({ ...keys.post(taken), body: 'already there' });
    await runAudited(stamp, async () => {
      await expect(put({ ...keys.post(taken), body: 'refused' }, 'attribute_not_exists(pk)')).rejects.toBeInstanceOf(
        ConditionalCheckFailedException,
      );
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.post(fresh),
          UpdateExpression: 'SET body = :b',
          ExpressionAttributeValues: { ':b': 'updated' },
        }),
      );
    });
    expect((await read(keys.post(taken)))?.written_by).toBeUndefined();
    expect((await read(keys.post(fresh)))?.written_by).toMatchObject({ request_id: stamp.request_id });
  });

  it('clears an old stamp from an item an unaudited update changes', async () => {
    const post = newId();
    await runAudited(pending(), () => put({ ...keys.post(post), likes: 0 }));
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.post(post),
        UpdateExpression: 'ADD likes :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    const item = await read(keys.post(post));
    expect(item?.likes).toBe(1);
    expect(item).not.toHaveProperty('written_by');
  });

  it('deletes a lone subject with an audit mark in one transaction, and fails as a DeleteItem would', async () => {
    const stamp = pending();
    const post = newId();
    await put({ ...keys.post(post), body: 'to delete' });
    await runAudited(stamp, () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: keys.post(post),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      ),
    );
    expect(await read(keys.post(post))).toBeUndefined();
    expect((await read(keys.auditMark(entryIdOf(stamp))))?.written_by).toEqual({
      ...stamp,
      target: { type: 'post', id: post },
    });

    const refused = pending();
    await runAudited(refused, async () => {
      await expect(
        db().send(
          new DeleteCommand({
            TableName: tableName(),
            Key: keys.post(newId()),
            ConditionExpression: 'attribute_exists(pk)',
          }),
        ),
      ).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    });
    expect(await read(keys.auditMark(entryIdOf(refused)))).toBeUndefined();
  });
});
