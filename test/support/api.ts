import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: { ok: boolean; data: T; agent: { hint?: string }; error_code?: string; error_message?: string };
}

export interface CallOptions {
  body?: unknown;
  /** Sent as-is instead of JSON.stringify(body). */
  rawBody?: string;
  token?: string;
  profileId?: string;
  headers?: Record<string, string>;
  baseUrl?: string;
}

/** One HTTP request to the local server, the way a client would send it. */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.profileId) headers['x-profile-id'] = options.profileId;
  const response = await fetch(`${options.baseUrl ?? inject('baseUrl')}${path}`, { method, headers, body });
  const text = await response.text();
  const parsed = JSON.parse(text) as ApiResponse<T>['body'];
  if (!options.baseUrl) await afterResponse?.({ method, path, status: response.status, body: parsed });
  return { status: response.status, headers: response.headers, body: parsed };
}

type ResponseObserver = (response: {
  method: string;
  path: string;
  status: number;
  body: unknown;
}) => void | Promise<void>;
let afterResponse: ResponseObserver | undefined;
/** Lets the contract check see every response of the suite. */
export const observeResponses = (observer: ResponseObserver) => {
  afterResponse = observer;
};

export const unique = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

export interface SignedUp {
  user: { id: string; email: string; name: string };
  workspace: { id: string; name: string };
  email: string;
  password: string;
  token: string;
}

export async function signUp(name = 'Test User'): Promise<SignedUp> {
  const email = `${unique('user')}@example.com`;
  const password = 'correct horse battery';
  const created = await call('POST', '/v1/users', { body: { email, password, name } });
  if (created.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(created.body)}`);
  const session = await call('POST', '/v1/sessions', { body: { email, password } });
  if (session.status !== 201) throw new Error(`login failed: ${JSON.stringify(session.body)}`);
  return { ...created.body.data, email, password, token: session.body.data.session.token };
}

export async function createProfile(token: string, extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/profiles', {
    token,
    body: { type: 'human', username: unique('p'), name: 'Pat Example', call_name: 'Pat', ...extra },
  });
  if (response.status !== 201) throw new Error(`profile creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; username: string; [field: string]: unknown };
}

export async function createApiKey(token: string, workspaceId: string, scopes: string[], profileIds: string[] = []) {
  const response = await call('POST', `/v1/workspaces/${workspaceId}/api-keys`, {
    token,
    body: { name: 'test key', scopes, profile_ids: profileIds },
  });
  if (response.status !== 201) throw new Error(`API key creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { key: string; api_key: { id: string; profile_ids: string[] } };
}

/** Asserts nothing about the body's content beyond the error envelope, and returns it. */
export function expectError(response: ApiResponse, status: number, code: string) {
  if (
    response.status !== status ||
    response.body.error_code !== code ||
    response.body.ok !== false ||
    response.body.data !== null
  ) {
    throw new Error(`expected ${status} ${code}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  if (typeof response.body.error_message !== 'string' || typeof response.body.agent !== 'object') {
    throw new Error(`error envelope incomplete: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}
