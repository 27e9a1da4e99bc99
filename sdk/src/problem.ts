/** What went wrong, from the error envelope: `error_code`, `error_message` and `agent.hint`. */
export class ApiProblem extends Error {
  constructor(
    /** The HTTP status; 0 when the API could not be reached. */
    readonly status: number,
    /** The envelope's `error_code` (`http_error` when the body was not an envelope, `network_error` with status 0). */
    readonly code: string,
    message: string,
    /** The envelope's `agent.hint`: what to do about it. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ApiProblem';
  }
}

interface ErrorBody {
  error_code?: unknown;
  error_message?: unknown;
  agent?: { hint?: unknown };
}

/** The problem an error envelope describes (or a plain one when the body is not an envelope). */
export function problemFrom(status: number, body: unknown): ApiProblem {
  const envelope = (body ?? {}) as ErrorBody;
  const code = typeof envelope.error_code === 'string' ? envelope.error_code : 'http_error';
  const message =
    typeof envelope.error_message === 'string' ? envelope.error_message : `The API answered HTTP ${status}.`;
  const hint = typeof envelope.agent?.hint === 'string' ? envelope.agent.hint : undefined;
  return new ApiProblem(status, code, message, hint);
}

type Result<T> = { data?: { data: T } | undefined; error?: unknown; response: Response };

/** Awaits a client call and returns the envelope's `data`, or throws the envelope's problem as an `ApiProblem`. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch {
    throw new ApiProblem(0, 'network_error', 'The API could not be reached.', 'Check your connection and try again.');
  }
  if (result.response.ok && result.data) return result.data.data;
  throw problemFrom(result.response.status, result.error);
}
