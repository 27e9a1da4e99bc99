/**
 * The response parts every operation of the OpenAPI document repeats, written once under
 * `components` and referenced by `$ref`: the response headers (`components/headers`) and the error
 * responses (`components/responses`, one per distinct status and set of error codes).
 */
import * as z from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi';
import { errorCatalogue, type ErrorCode } from './errors.js';
import { PUBLIC_CACHE_MAX_AGE_SECONDS, type RouteDef } from './route.js';
import { routeErrorResponses } from './route-errors.js';
import { ErrorEnvelope } from './schemas/common.js';

/** A response header, registered under `components/headers` by its own name. */
const header = <T extends z.ZodType>(name: string, schema: T, description: string): T =>
  schema.meta({ description, header: { id: name } });

export const RateLimitHeaders = z.object({
  RateLimit: header(
    'RateLimit',
    z.string(),
    'IETF httpapi RateLimit (structured fields): per policy counted, `r` requests remaining and `t` seconds until the window resets, e.g. `"credential";r=599;t=42`.',
  ),
  'RateLimit-Policy': header(
    'RateLimit-Policy',
    z.string(),
    'IETF httpapi RateLimit-Policy: per policy counted, `q` requests per `w` seconds, e.g. `"credential";q=600;w=60`.',
  ),
});
const RetryAfterHeader = z.object({
  'Retry-After': header('Retry-After', z.string(), 'Seconds to wait before sending again.'),
});
export const ReplayedHeader = z.object({
  'Idempotent-Replayed': header(
    'Idempotent-Replayed',
    z.literal('true').optional(),
    'Present when this is the stored first response to the same Idempotency-Key.',
  ),
});
export const CacheHeaders = z.object({
  'Cache-Control': header(
    'Cache-Control',
    z.string(),
    `\`public, max-age=${PUBLIC_CACHE_MAX_AGE_SECONDS}\` when the request carried no credential (any cache may keep the answer that long); \`no-store\` with a credential.`,
  ),
  ETag: header(
    'ETag',
    z.string().optional(),
    'Without a credential: a strong validator of this answer, for If-None-Match.',
  ),
  Vary: header('Vary', z.literal('Authorization').optional(), 'Without a credential: the answer differs with one.'),
});

/**
 * One error response per status and codes, the same object wherever it is used: zod-openapi
 * writes an object with an `id` once under `components/responses` and a `$ref` at every use (a
 * second object with the same id would be refused).
 */
const shared = new Map<string, ZodOpenApiResponseObject>();

function errorResponse(status: number, codes: [ErrorCode, ...ErrorCode[]]): ZodOpenApiResponseObject {
  const id = `Error${status}-${codes.join('-')}`;
  const known = shared.get(id);
  if (known) return known;
  const response: ZodOpenApiResponseObject = {
    id,
    description:
      status === 422
        ? '`invalid_request`: this Idempotency-Key was already used with another request.'
        : codes.map((c) => `\`${c}\`: ${errorCatalogue[c].message}`).join(' '),
    headers: status === 429 ? RateLimitHeaders.extend(RetryAfterHeader.shape) : RateLimitHeaders,
    content: { 'application/json': { schema: ErrorEnvelope.extend({ error_code: z.enum(codes) }) } },
  };
  shared.set(id, response);
  return response;
}

/** The error responses of a route, by status: exactly the codes route-errors.ts gives it. */
export function errorResponses(route: RouteDef): ZodOpenApiOperationObject['responses'] {
  const byStatus = new Map<number, [ErrorCode, ...ErrorCode[]]>();
  for (const { status, code } of routeErrorResponses(route)) {
    const codes = byStatus.get(status);
    if (codes) codes.push(code);
    else byStatus.set(status, [code]);
  }
  return Object.fromEntries([...byStatus].map(([status, codes]) => [String(status), errorResponse(status, codes)]));
}
