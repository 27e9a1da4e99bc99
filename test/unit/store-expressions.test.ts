import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { conditionHeld, conditionOutcome } from '../../shared/store/conditional.js';
import { conditionRequest, updateItem, updateRequest, when } from '../../shared/store/expressions.js';

const key = { pk: 'POST#1', sk: 'POST' };

describe('the update builder', () => {
  it('names every attribute and value, one clause per kind of change, and skips undefined values', () => {
    const request = updateRequest({
      key,
      set: { status: 'published', body: undefined, 'author_card.name': 'Ada' },
      remove: ['gsi1pk'],
      add: { reply_count: 1 },
      delete: { author_ids: new Set(['a']) },
    });
    expect(request).toEqual({
      TableName: expect.any(String),
      Key: key,
      UpdateExpression: 'SET #n0 = :v0, #n1.#n2 = :v1 REMOVE #n3 ADD #n4 :v2 DELETE #n5 :v3',
      ExpressionAttributeNames: {
        '#n0': 'status',
        '#n1': 'author_card',
        '#n2': 'name',
        '#n3': 'gsi1pk',
        '#n4': 'reply_count',
        '#n5': 'author_ids',
      },
      ExpressionAttributeValues: { ':v0': 'published', ':v1': 'Ada', ':v2': 1, ':v3': new Set(['a']) },
    });
  });

  it('reuses one name for an attribute the condition reads again, and ANDs a list of conditions', () => {
    const request = updateRequest({
      key,
      set: { status: 'removed' },
      when: [when.exists(), when.is('status', 'published')],
    });
    expect(request.UpdateExpression).toBe('SET #n0 = :v0');
    expect(request.ConditionExpression).toBe('(attribute_exists(#n1)) AND (#n0 = :v1)');
    expect(request.ExpressionAttributeNames).toEqual({ '#n0': 'status', '#n1': 'pk' });
    expect(request.ExpressionAttributeValues).toEqual({ ':v0': 'removed', ':v1': 'published' });
  });

  it('appends to a list from the list itself', () => {
    const request = updateRequest({ key, append: { profile_ids: ['p1'] } });
    expect(request.UpdateExpression).toBe('SET #n0 = list_append(#n0, :v0)');
    expect(request.ExpressionAttributeValues).toEqual({ ':v0': ['p1'] });
  });

  it('spells each kind of condition part', () => {
    const request = updateRequest({
      key,
      set: { x: 1 },
      when: when.any(
        when.lacks('leases'),
        when.size('leases', '<', 3),
        when.oneOf('status', ['active', 'failing']),
        when.all(when.has('wm'), when.compare('wm', '<', 'b'), when.beginsWith('sk', 'MSG#')),
        when.absent(),
      ),
    });
    expect(request.ConditionExpression).toBe(
      '(attribute_not_exists(#n1)) OR (size(#n1) < :v1) OR (#n2 IN (:v2, :v3)) OR ' +
        '((attribute_exists(#n3)) AND (#n3 < :v4) AND (begins_with(#n4, :v5))) OR (attribute_not_exists(#n5))',
    );
    expect(request.ExpressionAttributeNames).toMatchObject({ '#n1': 'leases', '#n2': 'status', '#n5': 'pk' });
  });

  it('adds return values for a single update, and the old item on refusal when asked', () => {
    expect(updateItem({ key, set: { a: 1 }, returns: 'ALL_NEW' })).toMatchObject({ ReturnValues: 'ALL_NEW' });
    expect(updateRequest({ key, set: { a: 1 }, returnOnRefusal: 'ALL_OLD' })).toMatchObject({
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(updateRequest({ key, set: { a: 1 } })).not.toHaveProperty('ReturnValues');
  });

  it('leaves out empty name and value maps, and refuses an update that changes nothing', () => {
    const request = updateRequest({ key, remove: ['x'] });
    expect(request).not.toHaveProperty('ExpressionAttributeValues');
    expect(request).not.toHaveProperty('ConditionExpression');
    expect(() => updateRequest({ key, set: { a: undefined } })).toThrow(/must change something/);
  });

  it('builds the condition of a put, delete or condition check', () => {
    expect(conditionRequest(when.is('post_id', 'p1'))).toEqual({
      TableName: expect.any(String),
      ConditionExpression: '#n0 = :v0',
      ExpressionAttributeNames: { '#n0': 'post_id' },
      ExpressionAttributeValues: { ':v0': 'p1' },
    });
    expect(() => conditionRequest([])).toThrow(/at least one part/);
  });
});

const refused = (item?: Record<string, unknown>) =>
  Object.assign(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }), {
    Item: item,
  });

describe('did the condition hold', () => {
  it('answers true with the result when the write applied', async () => {
    expect(await conditionHeld(Promise.resolve({}))).toBe(true);
    expect(await conditionOutcome(Promise.resolve({ Attributes: { a: 1 } }))).toEqual({
      held: true,
      result: { Attributes: { a: 1 } },
    });
  });

  it('answers false with the refused item, read into plain values', async () => {
    expect(await conditionHeld(Promise.reject(refused()))).toBe(false);
    const outcome = await conditionOutcome(Promise.reject(refused({ hits: { N: '7' }, leases: { SS: ['a', 'b'] } })));
    expect(outcome).toEqual({ held: false, item: { hits: 7, leases: new Set(['a', 'b']) } });
  });

  it('throws every other failure', async () => {
    await expect(conditionHeld(Promise.reject(new Error('throttled')))).rejects.toThrow('throttled');
  });
});
