/**
 * What a pipeline reads off the wire, checked against its schema: a stream record's image (the
 * DynamoDB attribute map, converted by `@aws-sdk/util-dynamodb` as the document client converts
 * items) or a queue message's body (JSON). Either way the answer is the record or why there is none,
 * never a throw: a consumer reports a malformed item and goes on with the rest of its batch.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod/mini';

export type Decoded<T> = { ok: true; record: T } | { ok: false; reason: string };

/** An image as the stream event carries it (aws-lambda's attribute type, structurally the SDK's). */
export type StreamImage = Record<string, unknown>;

function checked<S extends z.ZodMiniType>(schema: S, value: unknown): Decoded<z.infer<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, record: parsed.data } : { ok: false, reason: z.prettifyError(parsed.error) };
}

/**
 * The record a stream image holds (unknown attributes dropped by the schema), or why it holds none:
 * an attribute `unmarshall` refuses (a number beyond double precision, an unknown type) or a record
 * the schema refuses. Sets become `Set`s, numbers `number`s.
 */
export function decodeImage<S extends z.ZodMiniType>(schema: S, image: StreamImage | undefined): Decoded<z.infer<S>> {
  if (!image) return { ok: false, reason: 'no image' };
  let value: unknown;
  try {
    value = unmarshall(image as Record<string, AttributeValue>);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  return checked(schema, value);
}

/** The message a queue body holds, or why it holds none: not JSON, or not a message. */
export function decodeBody<S extends z.ZodMiniType>(schema: S, body: string): Decoded<z.infer<S>> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  return checked(schema, json);
}
