/**
 * The HTTP API's GET /v1/stream in AWS: a 307 to the same path and query on the streaming REST
 * API (functions/system/streaming-redirect.ts), which EventSource and fetch follow.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { handler, streamingLocation } from '../../functions/system/streaming-redirect.js';

const event = (rawQueryString: string) =>
  ({
    version: '2.0',
    routeKey: 'GET /v1/stream',
    rawPath: '/v1/stream',
    rawQueryString,
    headers: { accept: 'text/event-stream' },
    requestContext: { requestId: 'req-307', http: { method: 'GET', path: '/v1/stream' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const context = { awsRequestId: 'invocation' } as Context;

describe('the streaming routes on the HTTP API', () => {
  afterEach(() => {
    delete process.env.STREAMING_API_URL;
  });

  it('sends the client to the same path and query on the streaming API (307), uncached, with its request id', async () => {
    process.env.STREAMING_API_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/live/';
    const answer = await handler(event('ticket=stk_abc&types=message.created'), context);
    expect(answer).toEqual({
      statusCode: 307,
      headers: {
        location:
          'https://abc123.execute-api.eu-west-1.amazonaws.com/live/v1/stream?ticket=stk_abc&types=message.created',
        'cache-control': 'no-store',
        'x-request-id': 'req-307',
      },
    });
  });

  it('joins the base with or without its final slash, and adds no "?" without a query', () => {
    expect(streamingLocation('https://h/live/', '/v1/stream', '')).toBe('https://h/live/v1/stream');
    expect(streamingLocation('https://h/live', '/v1/stream', 'after=1')).toBe('https://h/live/v1/stream?after=1');
  });
});
