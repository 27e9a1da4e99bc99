/**
 * A DynamoDB stream image (AttributeValue map) → the record it holds, checked against the record's
 * schema. The items hold strings, numbers, booleans, nulls, maps and lists; sets become arrays.
 */
import * as z from 'zod/mini';

export type StreamAttribute = {
  S?: string;
  N?: string;
  BOOL?: boolean;
  NULL?: boolean;
  M?: Record<string, StreamAttribute>;
  L?: StreamAttribute[];
  SS?: string[];
  NS?: string[];
  B?: unknown;
  BS?: unknown[];
};

function fromAttribute(value: StreamAttribute): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL) return null;
  if (value.M) return fromImage(value.M);
  if (value.L) return value.L.map(fromAttribute);
  if (value.SS) return [...value.SS];
  if (value.NS) return value.NS.map(Number);
  if (value.B !== undefined) return value.B;
  if (value.BS) return [...value.BS];
  return undefined;
}

function fromImage(image: Record<string, StreamAttribute>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(image).map(([key, value]) => [key, fromAttribute(value)]));
}

/** The record a stream image holds, checked against its schema (unknown attributes dropped), or why it holds none. */
export function readImage<S extends z.ZodMiniType>(
  schema: S,
  image: Record<string, StreamAttribute>,
): { ok: true; record: z.infer<S> } | { ok: false; reason: string } {
  const parsed = schema.safeParse(fromImage(image));
  return parsed.success ? { ok: true, record: parsed.data } : { ok: false, reason: z.prettifyError(parsed.error) };
}
