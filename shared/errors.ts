/**
 * The ground floor of errors: every failure the product can name, with its default message.
 * Domain, store and auth code throw `AppError`s; only `shared/http` knows which HTTP status each
 * code answers with (`shared/http/contract/errors.ts`).
 */
export const errorMessages = {
  invalid_json: 'The request body is not valid JSON.',
  invalid_request: 'The request did not pass validation.',
  unauthorized: 'A valid credential is required.',
  invalid_credentials: 'The email or password is wrong.',
  second_factor_required: 'The account has a second factor: the log-in needs a code.',
  insufficient_scope: 'The API key lacks the scope this operation requires.',
  profile_not_permitted: 'The credential may not act as this profile.',
  session_required: 'This operation requires an owner or admin session, not an API key.',
  forbidden: 'You are not allowed to perform this operation.',
  not_found: 'The resource does not exist.',
  route_not_found: 'No route matches this path.',
  method_not_allowed: 'The path exists but does not accept this method.',
  username_taken: 'The username is already taken.',
  email_taken: 'An account with this email already exists.',
  invalid_state: 'The resource is not in a state that allows this operation.',
  media_not_ready: 'The media is not ready: its upload has not been processed (yet).',
  payload_too_large: 'The request body is larger than 256 KiB.',
  unsupported_media_type: 'The request body must be JSON (Content-Type: application/json).',
  rate_limited: 'Too many requests.',
  internal_error: 'Something went wrong on our side.',
  profile_suspended: 'The profile is suspended by moderation: no credential may act as it.',
  blocked: 'A block stands between the acting profile and this profile.',
  reply_not_allowed: "The thread's reply policy does not let the acting profile reply or comment here.",
  invalid_token: 'The token is unknown, altered, expired, already used or replaced by a newer one.',
  messages_not_allowed: "The recipient's message settings do not let the acting profile message it.",
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof errorMessages;

export interface AppErrorOptions {
  message?: string;
  /** What the caller can do about it; never echoes user content. */
  hint?: string;
  cause?: unknown;
}

/** A failure with a stable code, raised anywhere below the HTTP layer and mapped to the envelope there. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? errorMessages[code], { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.hint = options.hint;
  }
}

/** Shorthand for the most common throw site. */
export const notFound = (what: string) =>
  new AppError('not_found', {
    message: `${what} not found.`,
    hint: `Check the ${what.toLowerCase()} id; resources of other workspaces are not visible.`,
  });

/** A list's cursor that this list did not hand out (malformed, or from another list). */
export const invalidCursor = () =>
  new AppError('invalid_request', {
    message: 'The cursor is not valid for this list.',
    hint: 'Pass back next_cursor exactly as a previous page of this same list returned it.',
  });
