/**
 * The typed API client: openapi-fetch over the types that openapi-typescript generates from
 * GET /v1/openapi.json. The console uses it, and integrators can too (see the README).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './openapi-types.js';

export type { components, paths };
export type ApiClient = Client<paths>;
export type Schemas = components['schemas'];

/** What went wrong, from the error envelope (`error_code`, `error_message`, `agent.hint`). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ApiProblem';
  }
}

export interface ApiClientOptions {
  /** Where the API is; '' for the origin that served the page. */
  baseUrl: string;
  /** The session token (st_…) or API key (sk_…) to send, read on every request. */
  credential?: () => string | undefined;
  fetch?: typeof globalThis.fetch;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: options.fetch });
  client.use({
    onRequest({ request }) {
      const credential = options.credential?.();
      if (credential) request.headers.set('authorization', `Bearer ${credential}`);
      return request;
    },
  });
  return client;
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

/** Awaits a client call and returns the envelope's `data`, or throws the envelope's problem. */
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
