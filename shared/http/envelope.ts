import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError, statusOf, type AppError } from './contract/errors.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function successResponse(
  status: number,
  data: unknown,
  hint?: string,
  headers?: Record<string, string>,
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
    body: JSON.stringify({ ok: true, data, agent: hint ? { hint } : {} }),
  };
}

/** A JSON body without the envelope (the OpenAPI document). */
export function rawJsonResponse(status: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  };
}

/** RFC 9110: a 401 names the scheme the client should authenticate with. */
const challenge = (error: AppError): Record<string, string> =>
  error.code === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {};

export function errorResponse(error: AppError): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: statusOf(error),
    headers: { ...JSON_HEADERS, ...challenge(error), ...(error instanceof ApiError ? error.headers : undefined) },
    body: JSON.stringify({
      ok: false,
      data: null,
      agent: error.hint ? { hint: error.hint } : {},
      error_code: error.code,
      error_message: error.message,
    }),
  };
}
