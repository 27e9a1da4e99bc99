import { OAuthError } from '../oauth/errors.js';
import { RawAnswer } from './handler.js';

/** RFC 6749 §5.1: token answers (and their errors) are never cached. */
const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', pragma: 'no-cache' };

/** A JSON answer of an OAuth endpoint, not in the envelope. */
export const oauthJson = (status: number, body: unknown): RawAnswer =>
  new RawAnswer({ statusCode: status, headers: HEADERS, body: JSON.stringify(body) });

/** A 302 to `location`. */
export const redirectTo = (location: string): RawAnswer =>
  new RawAnswer({ statusCode: 302, headers: { location, 'cache-control': 'no-store' }, body: '' });

/**
 * Runs an OAuth endpoint: its OAuthErrors become `{ error, error_description }` with their status
 * (a 401 names the scheme, RFC 6749 §5.2); anything else is the service's own failure.
 */
export async function oauthEndpoint(run: () => Promise<RawAnswer>): Promise<RawAnswer> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const answer = oauthJson(error.status, { error: error.error, error_description: error.description });
    if (error.status === 401) answer.response.headers = { ...answer.response.headers, 'www-authenticate': 'Bearer' };
    return answer;
  }
}

/** The fields of a form-encoded body (`application/x-www-form-urlencoded`), each once. */
export function formFields(body: string | undefined, isBase64Encoded: boolean): Record<string, string> {
  const text = body === undefined ? '' : isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in fields) throw new OAuthError('invalid_request', `${name} is repeated`);
    fields[name] = value;
  }
  return fields;
}
