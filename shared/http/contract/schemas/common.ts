import * as z from 'zod';

export const Uuid = z
  .uuid()
  .meta({ description: 'A lowercase UUID.', example: '3f0c8f8e-6a59-4b8e-9d0b-2a4a8f1f5b8e' });
export const Timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC timestamp with milliseconds.' });

/** The `agent` object of every envelope: service-generated guidance, never user content. */
export const Agent = z.object({ hint: z.string().optional() }).catchall(z.unknown()).meta({ id: 'Agent' });

export const successEnvelope = <T extends z.ZodType>(data: T) => z.object({ ok: z.literal(true), data, agent: Agent });

export const ErrorEnvelope = z
  .object({
    ok: z.literal(false),
    data: z.null(),
    agent: Agent,
    error_code: z.string(),
    error_message: z.string(),
  })
  .meta({ id: 'ErrorEnvelope' });

/** `?limit=&cursor=` of every list that can grow. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
});

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export const NoParams = z.strictObject({});

/**
 * Control characters, line separators and invisible formatting characters (bidi overrides and
 * isolates, zero-width spaces, BOM, soft hyphen): they let a name display as something else.
 * ZWNJ and ZWJ stay allowed: some scripts and emoji sequences need them.
 */
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u;

/** A name shown to other people: trimmed, 1..max characters, nothing invisible or direction-changing. */
export const DisplayName = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine(
      (text) => !INVISIBLE.test(text),
      'must not contain control or invisible formatting characters (e.g. bidi overrides)',
    );
