import type * as z from 'zod';

/**
 * The fields a response schema declares, in its order, taken from `source`: the schema is the one
 * statement of what leaves the service, so a record's internal fields (secrets, hashes, workspace
 * ids used for addressing) never do.
 */
export function declared<S extends z.ZodObject>(schema: S, source: z.input<S>): z.input<S> {
  const fields = source as Record<string, unknown>;
  return Object.fromEntries(Object.keys(schema.shape).map((field) => [field, fields[field]])) as z.input<S>;
}
