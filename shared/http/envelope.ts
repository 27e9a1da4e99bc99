import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError } from './errors.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function successResponse(status: number, data: unknown, hint?: string): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: JSON_HEADERS,
    body: JSON.stringify({ ok: true, data, agent: hint ? { hint } : {} }),
  };
}

/** A JSON body without the envelope (the OpenAPI document). */
export function rawJsonResponse(status: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) };
}

export function errorResponse(error: ApiError): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: error.statusCode,
    headers: { ...JSON_HEADERS, ...error.headers },
    body: JSON.stringify({
      ok: false,
      data: null,
      agent: error.hint ? { hint: error.hint } : {},
      error_code: error.code,
      error_message: error.message,
    }),
  };
}
