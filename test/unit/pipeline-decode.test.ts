/** Decoding what a pipeline reads: a stream image through util-dynamodb, a queue body as JSON, both against a schema. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { decodeBody, decodeImage } from '../../shared/pipeline/decode.js';

const Follow = z.object({
  entity: z.literal('follow'),
  follower_profile_id: z.string(),
  count: z.number(),
  tags: z.array(z.string()),
  meta: z.object({ note: z.nullable(z.string()), ok: z.boolean() }),
});

const goodImage = {
  pk: { S: 'PROFILE#b' },
  entity: { S: 'follow' },
  follower_profile_id: { S: 'a' },
  count: { N: '42' },
  tags: { L: [{ S: 'x' }, { S: 'y' }] },
  meta: { M: { note: { NULL: true }, ok: { BOOL: true } } },
};

describe('decodeImage', () => {
  it('turns a good image into its record, dropping attributes the schema does not name', () => {
    expect(decodeImage(Follow, goodImage)).toEqual({
      ok: true,
      record: {
        entity: 'follow',
        follower_profile_id: 'a',
        count: 42,
        tags: ['x', 'y'],
        meta: { note: null, ok: true },
      },
    });
  });

  it('says why a malformed image holds no record: a missing field, a wrong type', () => {
    const { follower_profile_id: _gone, ...missing } = goodImage;
    const withoutField = decodeImage(Follow, missing);
    expect(withoutField.ok).toBe(false);
    expect(!withoutField.ok && withoutField.reason).toContain('follower_profile_id');
    const wrongType = decodeImage(Follow, { ...goodImage, count: { S: '42' } });
    expect(!wrongType.ok && wrongType.reason).toContain('count');
  });

  it('refuses an image of another entity', () => {
    const post = decodeImage(Follow, { ...goodImage, entity: { S: 'post' } });
    expect(post.ok).toBe(false);
    expect(!post.ok && post.reason).toContain('entity');
  });

  it('answers rather than throws on what unmarshall refuses, and on no image at all', () => {
    const huge = decodeImage(Follow, { ...goodImage, count: { N: '123456789012345678901234567890' } });
    expect(huge.ok).toBe(false);
    expect(!huge.ok && huge.reason.length).toBeGreaterThan(0);
    expect(decodeImage(Follow, undefined)).toEqual({ ok: false, reason: 'no image' });
  });
});

describe('decodeBody', () => {
  const Message = z.object({ id: z.string(), attempt: z.int() });

  it('reads a body that holds a message', () => {
    expect(decodeBody(Message, '{"id":"d-1","attempt":2,"extra":true}')).toEqual({
      ok: true,
      record: { id: 'd-1', attempt: 2 },
    });
  });

  it('says why a body holds none: not JSON, or not the message', () => {
    expect(decodeBody(Message, '{"id":')).toEqual({ ok: false, reason: 'not JSON' });
    const wrong = decodeBody(Message, '{"id":"d-1","attempt":"2"}');
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.reason).toContain('attempt');
  });
});
