/**
 * The error catalogue: every error_code the API emits, with its status and a default message.
 * Handlers throw `ApiError`s; `error-envelope.ts` is the one place they become responses.
 */
export const errorCatalogue = {
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_request: { status: 400, message: 'The request did not pass validation.' },
  unauthorized: { status: 401, message: 'A valid credential is required.' },
  invalid_credentials: { status: 401, message: 'The email or password is wrong.' },
  insufficient_scope: { status: 403, message: 'The API key lacks the scope this operation requires.' },
  profile_not_permitted: { status: 403, message: 'The credential may not act as this profile.' },
  session_required: { status: 403, message: 'This operation requires an owner or admin session, not an API key.' },
  forbidden: { status: 403, message: 'You are not allowed to perform this operation.' },
  not_found: { status: 404, message: 'The resource does not exist.' },
  route_not_found: { status: 404, message: 'No route matches this path.' },
  method_not_allowed: { status: 405, message: 'The path exists but does not accept this method.' },
  username_taken: { status: 409, message: 'The username is already taken.' },
  email_taken: { status: 409, message: 'An account with this email already exists.' },
  invalid_state: { status: 409, message: 'The resource is not in a state that allows this operation.' },
  payload_too_large: { status: 413, message: 'The request body is larger than 256 KiB.' },
  unsupported_media_type: { status: 415, message: 'The request body must be JSON (Content-Type: application/json).' },
  rate_limited: { status: 429, message: 'Too many requests.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ApiErrorOptions {
  message?: string;
  /** What the caller can do about it; never echoes user content. */
  hint?: string;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly hint: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? errorCatalogue[code].message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = errorCatalogue[code].status;
    this.hint = options.hint;
    this.headers = options.headers;
  }
}

/** Shorthand for the most common throw sites. */
export const notFound = (what: string) =>
  new ApiError('not_found', { message: `${what} not found.`, hint: `Check the ${what.toLowerCase()} id; resources of other workspaces are not visible.` });
