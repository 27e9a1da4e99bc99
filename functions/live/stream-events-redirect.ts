/**
 * GET /v1/stream on the HTTP API in AWS. The HTTP API cannot stream a response, so the stream is
 * served by the streaming REST API (infra/streaming-route.ts), whose base URL the stack gives as
 * STREAMING_API_URL, and this answers `307` to the same path and query there. fetch, EventSource
 * and `curl -L` drop `Authorization` when a redirect leads to another origin, so a caller with a
 * credential is checked here as the route checks it (its whole middleware stack: credential,
 * `events:read`, acting profile, rate limit) and sent on with a stream ticket of its own in the
 * query (one write); a caller with a ticket is sent on as it is (the stream spends it).
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { newStreamTicket } from '../../shared/domain/stream-tickets.js';
import { routes } from '../../shared/http/contract/routes/live.js';
import { httpHandler, RawAnswer } from '../../shared/http/handler.js';
import { requestId } from '../../shared/http/middleware/request-id.js';
import { storeStreamTicket } from '../../shared/store/stream-tickets.js';

/** The same path and query on the streaming API (`base` is its stage URL, with or without a final slash). */
export const streamingLocation = (base: string, rawPath: string, rawQueryString: string): string =>
  `${base.replace(/\/$/, '')}${rawPath}${rawQueryString ? `?${rawQueryString}` : ''}`;

function redirect(event: APIGatewayProxyEventV2, rawQueryString: string): APIGatewayProxyStructuredResultV2 {
  const base = process.env.STREAMING_API_URL;
  if (!base) throw new Error('STREAMING_API_URL is not set');
  return {
    statusCode: 307,
    headers: { location: streamingLocation(base, event.rawPath, rawQueryString), 'cache-control': 'no-store' },
  };
}

/** A caller with a credential: checked by the route's stack, then sent on with a ticket for its acting profile. */
const withCredential = httpHandler(routes.streamEvents, async ({ auth, now, event }) => {
  const { ticket, record } = newStreamTicket(now, auth.actingProfile.id);
  await storeStreamTicket(record);
  const query = new URLSearchParams(event.rawQueryString);
  query.set('ticket', ticket);
  return new RawAnswer(redirect(event, query.toString()));
});

/** A caller with a ticket: sent on as it came. */
const withTicket = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>((event: APIGatewayProxyEventV2) =>
  Promise.resolve(redirect(event, event.rawQueryString)),
).use(requestId());

export const handler = (event: APIGatewayProxyEventV2, context: Context) =>
  event.queryStringParameters?.ticket !== undefined ? withTicket(event, context) : withCredential(event, context);
