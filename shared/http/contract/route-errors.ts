import { errorStatus, type ErrorCode } from './errors.js';
import type { RouteDef } from './route.js';

/** The order codes are listed in within one status of the OpenAPI document. */
const LISTING_ORDER: readonly ErrorCode[] = [
  'invalid_json',
  'invalid_request',
  'invalid_token',
  'invalid_credentials',
  'second_factor_required',
  'unauthorized',
  'insufficient_scope',
  'profile_not_permitted',
  'session_required',
  'forbidden',
  'not_found',
  'route_not_found',
  'method_not_allowed',
  'username_taken',
  'email_taken',
  'invalid_state',
  'media_not_ready',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'profile_suspended',
  'blocked',
  'reply_not_allowed',
  'messages_not_allowed',
];

/**
 * Every error code a route can answer with: the ones its shape implies (body, auth kind, scope,
 * acting profile) plus the route's own. The OpenAPI document lists exactly these.
 */
export function routeErrorCodes(route: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors);
  codes.add('unauthorized'); // also on public routes, when an invalid credential is sent
  if (route.body)
    ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large'].forEach((c) =>
      codes.add(c as ErrorCode),
    );
  if (route.params || route.query || route.actingProfile) codes.add('invalid_request');
  if (route.auth === 'session') codes.add('session_required');
  if (route.auth === 'credential' && route.scope) codes.add('insufficient_scope');
  if (route.actingProfile) codes.add('profile_not_permitted');
  if (route.actingProfile) codes.add('profile_suspended');
  if (route.idempotent) codes.add('invalid_state'); // a duplicate arriving while the first still runs
  codes.add('rate_limited');
  codes.add('internal_error');
  return LISTING_ORDER.filter((code) => codes.has(code));
}

/** Every status and code a route can answer with: each code's own status, plus the exceptions. */
export function routeErrorResponses(route: RouteDef): { status: number; code: ErrorCode }[] {
  const responses: { status: number; code: ErrorCode }[] = routeErrorCodes(route).map((code) => ({
    status: errorStatus[code],
    code,
  }));
  // An Idempotency-Key sent again with another request.
  if (route.idempotent) responses.push({ status: 422, code: 'invalid_request' });
  return responses.sort((a, b) => a.status - b.status);
}
