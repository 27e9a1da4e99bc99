import type * as z from 'zod';

/**
 * The fields a response schema declares, in its order, taken from `source`: the schema is the one
 * statement of what leaves the service, so a record's internal fields (secrets, hashes, workspace
 * ids used for addressing) never do.
 */
export function declared<S extends z.ZodObject>(schema: S, source: z.input<S>): z.input<S> {
  const fields = source as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fieldsOf(schema)) out[field] = fields[field];
  return out as z.input<S>;
}

/**
 * `declared` from a record and the fields derived from it, without first copying the record into
 * a merged object: `record` must carry every declared field that `derived` does not.
 */
export function declaredWith<S extends z.ZodObject, const D extends Partial<z.input<S>>>(
  schema: S,
  record: Omit<z.input<S>, keyof D>,
  derived: D,
): z.input<S> {
  const fields = record as Record<string, unknown>;
  const extra = derived as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fieldsOf(schema)) out[field] = field in extra ? extra[field] : fields[field];
  return out as z.input<S>;
}

/** A schema's field names, listed once: presenters run on every response. */
const fieldLists = new WeakMap<z.ZodObject, string[]>();
function fieldsOf(schema: z.ZodObject): string[] {
  let fields = fieldLists.get(schema);
  if (!fields) fieldLists.set(schema, (fields = Object.keys(schema.shape)));
  return fields;
}
