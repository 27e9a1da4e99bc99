/**
 * The HTTP API's answer on a streaming route (route.streaming: GET /v1/stream): API Gateway's HTTP
 * APIs cannot stream a response, so the route is served by the streaming REST API
 * (infra/streaming-route.ts) and a client of the base URL is sent there: `307` to the same path and
 * query on that API, whose base URL the stack gives as STREAMING_API_URL. EventSource and fetch
 * follow it; they drop `Authorization` on the way (another origin), so a header-authenticated
 * client calls the streaming URL directly and a browser opens it with `?ticket=` (docs/live.md).
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { requestId } from '../../shared/http/middleware/request-id.js';

/** The same path and query on the streaming API (`base` is its stage URL, with or without a final slash). */
export const streamingLocation = (base: string, rawPath: string, rawQueryString: string): string =>
  `${base.replace(/\/$/, '')}${rawPath}${rawQueryString ? `?${rawQueryString}` : ''}`;

export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(
  (event: APIGatewayProxyEventV2) => {
    const base = process.env.STREAMING_API_URL;
    if (!base) throw new Error('STREAMING_API_URL is not set');
    return Promise.resolve({
      statusCode: 307,
      headers: { location: streamingLocation(base, event.rawPath, event.rawQueryString), 'cache-control': 'no-store' },
    });
  },
).use(requestId());
