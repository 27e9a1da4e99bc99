/**
 * The HTTP side of the error catalogue: which status each error code answers with. Codes and
 * their default messages live on the ground floor (`shared/errors.ts`); `error-envelope.ts` is the
 * one place errors become responses.
 */
import { AppError, errorMessages, type AppErrorOptions, type ErrorCode } from '../../errors.js';

export { AppError, notFound, type ErrorCode } from '../../errors.js';

export const errorStatus = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  second_factor_required: 401,
  insufficient_scope: 403,
  profile_not_permitted: 403,
  session_required: 403,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  username_taken: 409,
  email_taken: 409,
  invalid_state: 409,
  media_not_ready: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  profile_suspended: 403,
  blocked: 403,
  reply_not_allowed: 403,
  invalid_token: 400,
  messages_not_allowed: 403,
} as const satisfies Record<ErrorCode, number>;

/** Status and default message per code, as the OpenAPI document lists them. */
export const errorCatalogue = Object.fromEntries(
  (Object.keys(errorStatus) as ErrorCode[]).map((code) => [
    code,
    { status: errorStatus[code], message: errorMessages[code] },
  ]),
) as Record<ErrorCode, { status: number; message: string }>;

/**
 * An `AppError` raised by the HTTP layer itself, which may add response headers (e.g. `Retry-After`)
 * or answer with another status than its code's usual one (`422 invalid_request` for an
 * Idempotency-Key reused with another body; the OpenAPI document lists such pairs per route).
 */
export class ApiError extends AppError {
  readonly headers: Record<string, string> | undefined;
  readonly status: number | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions & { headers?: Record<string, string>; status?: number } = {}) {
    super(code, options);
    this.name = 'ApiError';
    this.headers = options.headers;
    this.status = options.status;
  }
}

/** The status an error answers with. */
export const statusOf = (error: AppError): number =>
  (error instanceof ApiError && error.status) || errorStatus[error.code];
