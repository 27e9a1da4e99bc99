import * as z from 'zod';
import { ApiError } from './contract/errors.js';

export type InputPart = 'path' | 'query' | 'body' | 'header';

/** The schema inside optional, nullable and default wrappers. */
const unwrapped = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault
    ? unwrapped(schema.unwrap() as z.ZodType)
    : schema;

/** Field names the schema accepts, to tell a caller what to send instead of an unknown field. */
function knownFields(schema: z.ZodType, path: PropertyKey[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (const segment of path) {
    if (current instanceof z.ZodArray && typeof segment === 'number') {
      current = unwrapped(current.element as z.ZodType);
      continue;
    }
    if (!(current instanceof z.ZodObject)) return [];
    const field = current.shape[segment as string] as z.ZodType | undefined;
    current = field && unwrapped(field);
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

/** zod's message for a field that is absent, replaced by one in the caller's words. */
export const REQUIRED = 'is required';

/**
 * Words an issue for the caller rather than in the validator's terms: a missing field "is
 * required" (zod says "expected string, received undefined"), an empty text "must not be empty".
 */
export const callerWords: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && issue.input === undefined) return REQUIRED;
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1)
    return 'must not be empty';
  return undefined;
};

/** Response fields a request may not send (disclosure.ts): named in the hint, not just refused. */
const SERVICE_STAMPED = new Set(['automated', 'via']);

/**
 * Describes a validation failure by field and rule. The hint names fields from our own schema and
 * zod's rule text; it never repeats values or unknown field names the caller sent.
 */
export function validationError(part: InputPart, schema: z.ZodType, error: z.ZodError): ApiError {
  const issues = error.issues.slice(0, 3).map((issue) => {
    const where = [part, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      if (issue.keys.some((key) => SERVICE_STAMPED.has(key)))
        return `${where}: automated and via are set by the service when it writes, from the author and the credential; no request sets them`;
      return `${where} has fields this operation does not accept; allowed: ${knownFields(schema, issue.path).join(', ') || 'none'}`;
    }
    return issue.message === REQUIRED ? `${where} ${REQUIRED}` : `${where}: ${issue.message}`;
  });
  const first = error.issues[0];
  const field = first ? [part, ...first.path.map(String)].join('.') : part;
  return new ApiError('invalid_request', {
    message: first?.message === REQUIRED ? `${field} ${REQUIRED}.` : `Invalid ${field}.`,
    hint: issues.join('; '),
  });
}

export function parseInput<T extends z.ZodType>(part: InputPart, schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value, { error: callerWords });
  if (!result.success) throw validationError(part, schema, result.error);
  return result.data;
}
